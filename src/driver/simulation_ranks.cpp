// Simulation across MPI ranks: what the ranks check and agree on besides the device group's own
// exchanges (multi_device/device_group_ranks.cpp).
#include <algorithm>
#include <sstream>

#include "driver/simulation.h"

namespace sph {

// One simulation needs every rank to run it alike: only --devices and --threads may differ (and
// what follows from them). Otherwise the ranks would part ways at the first exchange.
void Simulation::check_same_run_on_every_rank(std::vector<Setting> settings) const {
    const RunOptions& o = options_;
    settings.push_back({"backend", backend_});
    settings.push_back({"t-end", std::to_string(o.t_end)});
    settings.push_back({"neighbours", o.neighbours == RunOptions::NeighbourSearch::kList
                                          ? "list " + std::to_string(o.max_neighbours)
                                          : "cells"});
    settings.push_back(
        {"lb", std::to_string(int(o.balancing)) + " " + std::to_string(o.lb_threshold)});
    settings.push_back({"output", std::to_string(o.write_output) + std::to_string(o.write_frames) +
                                      " every " + std::to_string(o.output_every) + " s"});
    settings.push_back(
        {"gauges", std::to_string(o.gauges.size() + o.probes.size() + o.walls.size()) + " every " +
                       std::to_string(o.gauge_every) + " s" +
                       (o.gauge_average ? " averaged" : "")});
    settings.push_back({"checkpoint-every", std::to_string(o.checkpoint_every) + " " +
                                                std::to_string(o.checkpoint_wall_seconds)});
    settings.push_back({"restart", o.restart_from});
    settings.push_back({"mpi-buffers", o.mpi_direct ? "direct" : "staged"});
    std::string mine;
    for (const auto& [name, value] : settings) mine += name + "\t" + value + "\n";
    const std::vector<std::string> all = ranks_->all_gather(mine);
    for (std::size_t r = 1; r < all.size(); ++r) {
        if (all[r] == all[0]) continue;
        std::istringstream first(all[0]), other(all[r]);
        std::string a, b;
        while (std::getline(first, a) && std::getline(other, b) && a == b) {
        }
        auto shown = [](std::string line) { return line.replace(line.find('\t'), 1, " = "); };
        throw OptionError("rank " + std::to_string(r) + " runs with " + shown(b) +
                          ", rank 0 with " + shown(a) +
                          ": the ranks of one simulation need the same options but --devices "
                          "and --threads");
    }
}

// Every device's description, in device order: each rank names its own.
std::vector<std::string> Simulation::every_ranks_descriptions() const {
    std::string mine;
    for (const std::string& d : descriptions_) mine += d + "\n";
    std::vector<std::string> all;
    for (const std::string& text : ranks_->all_gather(mine)) {
        for (std::size_t at = 0, end; (end = text.find('\n', at)) != std::string::npos;
             at = end + 1) {
            all.push_back(text.substr(at, end - at));
        }
    }
    return all;
}

std::pair<int, bool> Simulation::agree_on_checkpoint(int signal, bool due) const {
    const std::vector<std::string> said =
        ranks_->all_gather(std::to_string(signal) + " " + (due ? "1" : "0"));
    int any_signal = 0;
    for (const std::string& s : said) any_signal = std::max(any_signal, std::stoi(s));
    return {any_signal, any_signal != 0 || said[0].back() == '1'};
}

}  // namespace sph
