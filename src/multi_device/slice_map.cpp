#include "multi_device/slice_map.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sph {

SliceMap::SliceMap(std::vector<int> first_slice, int slice_count, int halo)
    : first_(std::move(first_slice)), slice_count_(slice_count), halo_(halo) {
    if (first_.empty() || first_[0] != 0) throw std::invalid_argument("SliceMap: must start at 0");
    if (halo_ < 1) throw std::invalid_argument("SliceMap: the halo is at least one slice");
    for (int d = 0; d < devices(); ++d) {
        if (end_slice(d) - first_[d] < halo_) {
            throw std::invalid_argument("SliceMap: device " + std::to_string(d) +
                                        " would own fewer than " + std::to_string(halo_) +
                                        " slice(s)");
        }
    }
}

SliceMap SliceMap::balanced(const std::vector<std::uint64_t>& work, int devices, int halo) {
    const int slices = static_cast<int>(work.size());
    if (devices < 1 || devices * halo > slices) {
        throw std::invalid_argument("cannot split " + std::to_string(slices) + " slices among " +
                                    std::to_string(devices) + " devices, " + std::to_string(halo) +
                                    " or more each");
    }
    std::uint64_t total = 0;
    for (auto n : work) total += n;
    std::vector<int> first(devices, 0);
    std::uint64_t seen = 0;
    int slice = 0;
    for (int d = 1; d < devices; ++d) {
        // Give devices before d about d/devices of the work, at least `halo` slices each,
        // and leave at least `halo` slices for each device still to come.
        const std::uint64_t target = total * std::uint64_t(d) / std::uint64_t(devices);
        const int last_allowed = slices - (devices - d) * halo;
        while (slice < last_allowed &&
               (slice < first[d - 1] + halo || seen + work[slice] <= target)) {
            seen += work[slice++];
        }
        first[d] = slice;
    }
    return SliceMap(first, slices, halo);
}

int SliceMap::end_slice(int device) const {
    return device + 1 < devices() ? first_[device + 1] : slice_count_;
}

int SliceMap::owner(int slice) const {
    return static_cast<int>(std::upper_bound(first_.begin(), first_.end(), slice) -
                            first_.begin()) -
           1;
}

std::vector<std::uint32_t> SliceMap::cell_bounds(const CellGrid& grid) const {
    std::vector<std::uint32_t> bounds;
    for (int first : first_) bounds.push_back(std::uint32_t(first) * grid.cells_per_slice());
    bounds.push_back(grid.cell_count());
    return bounds;
}

}  // namespace sph
