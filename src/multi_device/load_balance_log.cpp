#include "multi_device/load_balance_log.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sph {

LoadBalanceLog::LoadBalanceLog(const std::string& path, bool go_on) : path_(path) {
    errno = 0;
    const bool append = go_on && std::ifstream(path).good();
    out_.open(path, std::ios::out | (append ? std::ios::app : std::ios::trunc));
    if (!out_) {
        const int error = errno;
        throw std::runtime_error("cannot open load balance log '" + path + "' for writing" +
                                 (error != 0 ? std::string(": ") + std::strerror(error) : ""));
    }
    if (!append) out_ << kHeader << '\n';
    out_ << std::flush;
    if (!out_) throw std::runtime_error("cannot write load balance log '" + path + "'");
}

void LoadBalanceLog::write(long iteration, double time, const BalanceDecision& decision,
                           const std::vector<std::uint64_t>& particles) {
    const int devices = decision.from.devices();
    if (static_cast<int>(particles.size()) != devices ||
        static_cast<int>(decision.average_seconds.size()) != devices ||
        static_cast<int>(decision.marks.size()) != devices) {
        throw std::invalid_argument("load balance log: " + std::to_string(particles.size()) +
                                    " particle counts for a decision on " +
                                    std::to_string(devices) + " devices");
    }
    // One write and one flush per decision: a crash leaves whole decisions, not half rows.
    std::ostringstream rows;
    rows.precision(9);
    for (int d = 0; d < devices; ++d) {
        rows << steps_ << ',' << iteration << ',' << time << ',' << d << ','
             << decision.from.first_slice(d) << ',' << decision.from.end_slice(d) << ','
             << particles[d] << ',' << decision.average_seconds[d] << ','
             << to_string(decision.marks[d]) << ',' << decision.to.first_slice(d) << ','
             << decision.to.end_slice(d) << '\n';
    }
    out_ << rows.str() << std::flush;
    if (!out_) throw std::runtime_error("cannot write load balance log '" + path_ + "'");
    ++steps_;
}

}  // namespace sph
