#include "multi_device/rank_span.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sph {

RankSpan RankSpan::join(const Ranks& ranks, int local_devices) {
    if (local_devices > kMostLocalDevices) {
        throw std::invalid_argument("--devices: a rank may drive at most " +
                                    std::to_string(kMostLocalDevices) + " devices");
    }
    RankSpan span;
    span.ranks_ = &ranks;
    span.first_.assign(1, 0);
    for (const std::string& count : ranks.all_gather(std::to_string(local_devices))) {
        span.first_.push_back(span.first_.back() + std::stoi(count));
    }
    return span;
}

int RankSpan::owner(int device) const {
    const auto after = std::upper_bound(first_.begin(), first_.end(), device);
    return int(after - first_.begin()) - 1;
}

int RankSpan::tag(Message kind, int from, int to, int field) const {
    const int from_local = from - first_[std::size_t(owner(from))];
    const int to_local = to - first_[std::size_t(owner(to))];
    return ((int(kind) * kMostFields + field) * kMostLocalDevices + from_local) *
               kMostLocalDevices +
           to_local;
}

}  // namespace sph
