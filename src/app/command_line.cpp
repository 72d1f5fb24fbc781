#include "app/command_line.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>

#include "app/checkpoint_options.h"
#include "app/instrument_options.h"
#include "app/option_groups.h"
#include "neighbour_list.h"
#include "problem.h"

namespace po = boost::program_options;

namespace sph {

namespace {

BackendChoice parse_backend(const std::string& text) {
    if (text == "auto") return BackendChoice::kAuto;
    if (text == "cpu") return BackendChoice::kCpu;
    if (text == "cuda") return BackendChoice::kCuda;
    throw OptionError("--backend must be auto, cpu or cuda (got '" + text + "')");
}

template <class T>
void require(bool ok, const char* option, const char* rule, T value) {
    if (ok) return;
    std::ostringstream msg;
    msg << "--" << option << " " << rule << " (got " << value << ")";
    throw OptionError(msg.str());
}

void validate(const RunOptions& o) {
    require(o.dp > 0.0, "dp", "must be positive", o.dp);
    require(o.t_end > 0.0, "t-end", "must be positive", o.t_end);
    require(o.output_every > 0.0, "output-every", "must be positive", o.output_every);
    require(o.rebuild_every >= 1, "rebuild-every", "must be at least 1", o.rebuild_every);
    require(o.max_neighbours >= 16 && o.max_neighbours <= 1024, "max-neighbours",
            "must be in [16, 1024]", o.max_neighbours);
    require(o.max_neighbours % int(kEntriesPerGroup) == 0, "max-neighbours",
            "must be a multiple of 8 (the list stores its entries in groups of eight)",
            o.max_neighbours);
    require(o.list_skin >= 0.0 && o.list_skin <= 1.0, "list-skin", "must be in [0, 1]",
            o.list_skin);
    require(o.h_factor >= 1.0 && o.h_factor <= 2.0, "h-factor", "must be in [1, 2]", o.h_factor);
    require(o.perturb_seed >= 0, "perturb", "must not be negative (0: no perturbation)",
            o.perturb_seed);
    require(o.perturb_size > 0.0 && o.perturb_size <= 0.1, "perturb-size", "must be in (0, 0.1]",
            o.perturb_size);
    require(o.c0_factor > 0.0, "c0-factor", "must be positive", o.c0_factor);
    require(o.cfl > 0.0 && o.cfl <= 1.0, "cfl", "must be in (0, 1]", o.cfl);
    require(o.viscosity_alpha >= 0.0, "alpha", "must not be negative", o.viscosity_alpha);
    require(o.diffusion_delta >= 0.0, "delta", "must not be negative", o.diffusion_delta);
    require(o.rho0 > 0.0 && std::isfinite(o.rho0), "rho0", "must be positive", o.rho0);
    require(o.gravity > 0.0 && std::isfinite(o.gravity), "gravity",
            "must be positive: it is the magnitude of g, which points along -z [m/s^2]", o.gravity);
    require(std::isfinite(o.dp) && std::isfinite(o.t_end) && std::isfinite(o.output_every) &&
                std::isfinite(o.c0_factor) && std::isfinite(o.viscosity_alpha) &&
                std::isfinite(o.diffusion_delta) && std::isfinite(o.gauge_every),
            "dp, --t-end, --output-every, --c0-factor, --alpha, --delta and --gauge-every",
            "must be finite numbers", "nan or inf");
    require(o.gamma >= 1.0, "gamma", "must be at least 1", o.gamma);
    require(o.threads >= 0, "threads", "must not be negative", o.threads);
    require(o.status_interval > 0.0, "status-interval", "must be positive", o.status_interval);
    require(o.gauge_every > 0.0, "gauge-every", "must be positive", o.gauge_every);
    require(o.gauge_filter_hz >= 0.0 && std::isfinite(o.gauge_filter_hz), "gauge-filter",
            "must be a frequency >= 0 [Hz]", o.gauge_filter_hz);
    require(o.lb_threshold >= 0.0 && std::isfinite(o.lb_threshold), "lb-threshold",
            "must be a number >= 0", o.lb_threshold);
}

}  // namespace

DeviceSelection parse_devices(const std::string& text, BackendChoice backend) {
    std::vector<int> ids;
    std::stringstream in(text);
    std::string item;
    bool ok = !text.empty() && text.back() != ',';
    while (ok && std::getline(in, item, ',')) {
        ok = !item.empty() && item.size() <= 4 &&
             item.find_first_not_of("0123456789") == std::string::npos;
        if (ok) ids.push_back(std::stoi(item));
    }
    if (!ok) throw OptionError("--devices must list GPU ids like 0,1 (got '" + text + "')");
    const DeviceSelection devices = DeviceSelection::gpus(ids);
    if (backend == BackendChoice::kCpu && devices.cpu_devices < 1) {
        throw OptionError("--devices with the CPU back end is a number of devices >= 1 (got '" +
                          text + "')");
    }
    return devices;
}

std::uint64_t parse_bytes(const std::string& text, const char* option) {
    const std::size_t digits = std::min(text.find_first_not_of("0123456789"), text.size());
    const std::string suffix = text.substr(digits);
    const int shift = suffix == ""    ? 0
                      : suffix == "K" ? 10
                      : suffix == "M" ? 20
                      : suffix == "G" ? 30
                                      : -1;
    if (digits == 0 || shift < 0 || digits > 15) {
        throw OptionError(std::string("--") + option +
                          " takes a byte count such as 4000000, 512M or 2G (got '" + text + "')");
    }
    return std::stoull(text.substr(0, digits)) << shift;
}

namespace {

// "A:B" of two non-negative integers; throws OptionError naming --`option` and the `form`.
std::pair<long, long> parse_integer_pair(const std::string& text, const char* option,
                                         const char* form) {
    const std::size_t colon = text.find(':');
    const std::string a = text.substr(0, colon);
    const std::string b = colon == std::string::npos ? "" : text.substr(colon + 1);
    auto number = [](const std::string& t) {
        return !t.empty() && t.size() < 10 &&
               t.find_first_not_of("0123456789") == std::string::npos;
    };
    if (!number(a) || !number(b)) {
        throw OptionError(std::string("--") + option + " takes " + form + " (got '" + text + "')");
    }
    return {std::stol(a), std::stol(b)};
}

// Boost.Program_options (1.74) writes its messages by replacing %value%, %option% and the like
// with the offending text, again and again while the token is found: a value that holds its own
// token ("--delta x%value%") made it loop for ever (the config-file fuzzer's finding). Text of
// that form is refused here, before Boost sees it.
void refuse_placeholders(const std::string& text, const char* where) {
    static const std::regex placeholder("%[A-Za-z_]+%");
    std::smatch found;
    if (std::regex_search(text, found, placeholder)) {
        throw OptionError(std::string(where) + ": '" + found.str() +
                          "' is not allowed in an option or value (text of the form %name% is "
                          "reserved by the option parser)");
    }
}

// A problem's settings, each on its own so that a refusal names the line it was written on.
void store_problem_settings(const std::vector<ProblemSetting>& settings,
                            const po::options_description& all, po::variables_map& vm) {
    for (const ProblemSetting& s : settings) {
        const std::string line = s.name + " = " + s.value;
        refuse_placeholders(line, s.place.c_str());
        try {
            std::istringstream text(line);
            po::store(po::parse_config_file(text, all), vm);
        } catch (const po::error& e) {
            throw OptionError(s.place + ": setting '" + s.name + "': " + e.what());
        }
    }
}

// Reads argv, then the config file (the command line wins). Prints the help and returns false
// for --help.
bool read_variables(int argc, const char* const argv[], const po::options_description& all,
                    const std::vector<ProblemSetting>& settings, po::variables_map& vm,
                    std::ostream& help_out) {
    for (int k = 1; k < argc; ++k) refuse_placeholders(argv[k], "the command line");
    try {
        po::store(po::parse_command_line(argc, argv, all), vm);
        if (vm.count("config")) {
            const std::string path = vm["config"].as<std::string>();
            std::ifstream file(path);
            if (!file) throw OptionError("--config: cannot read '" + path + "'");
            const std::string text((std::istreambuf_iterator<char>(file)),
                                   std::istreambuf_iterator<char>());
            refuse_placeholders(text, ("--config " + path).c_str());
            std::istringstream lines(text);
            po::store(po::parse_config_file(lines, all), vm);
        }
        store_problem_settings(settings, all, vm);
        if (vm.count("help")) {
            help_out << all << "\n";
            return false;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        throw OptionError(e.what());
    }
    return true;
}

// A switch given as on or off; `option` names it in the refusal.
bool parse_on_off(const std::string& text, const std::string& option) {
    if (text == "on") return true;
    if (text == "off") return false;
    throw OptionError("--" + option + " must be on or off (got '" + text + "')");
}

// --no-penetration: auto follows the walls, since only mDBC's walls let spray in (wall_contact.h).
bool parse_no_penetration(const std::string& text, BoundaryModel boundary) {
    if (text == "auto") return boundary == BoundaryModel::kMdbc;
    if (text == "on" || text == "off") return text == "on";
    throw OptionError("--no-penetration must be on, off or auto (got '" + text + "')");
}

RunOptions::Balancing parse_balancing(const std::string& text) {
    if (text == "on") return RunOptions::Balancing::kOn;
    if (text == "off") return RunOptions::Balancing::kOff;
    if (text == "auto") return RunOptions::Balancing::kAuto;
    throw OptionError("--lb must be on, off or auto (got '" + text + "')");
}

BoundaryModel parse_boundary(const std::string& text) {
    if (text == "dbc") return BoundaryModel::kDbc;
    if (text == "mdbc") return BoundaryModel::kMdbc;
    throw OptionError("--boundary must be dbc or mdbc (got '" + text + "')");
}

RunOptions::NeighbourSearch parse_neighbours(const std::string& text) {
    if (text == "list") return RunOptions::NeighbourSearch::kList;
    if (text == "cells") return RunOptions::NeighbourSearch::kCells;
    throw OptionError("--neighbours must be list or cells (got '" + text + "')");
}

RunOptions::Slip parse_slip(const std::string& text) {
    if (text == "problem") return RunOptions::Slip::kProblem;
    if (text == "no-slip") return RunOptions::Slip::kNoSlip;
    if (text == "free-slip") return RunOptions::Slip::kFreeSlip;
    throw OptionError("--slip must be problem, no-slip or free-slip (got '" + text + "')");
}

GaugeReading parse_gauge_reading(const std::string& text) {
    if (text == "surface") return GaugeReading::kSurface;
    if (text == "wetted") return GaugeReading::kWetted;
    throw OptionError("--gauge-reading must be surface or wetted (got '" + text + "')");
}

// The options given as text and as flags, into their settings.
void apply_text_options(const TextOptions& t, const po::variables_map& vm, RunOptions& o) {
    o.backend = parse_backend(t.backend);
    if (!t.devices.empty()) o.devices = parse_devices(t.devices, o.backend);
    o.write_output = vm.count("no-output") == 0;
    o.write_frames = vm.count("no-frames") == 0;
    o.problem_instruments = vm.count("no-instruments") == 0;
    o.gauge_average = vm.count("gauge-average") > 0;
    if (t.out_of_domain != "remove" && t.out_of_domain != "stop") {
        throw OptionError("--out-of-domain must be remove or stop (got '" + t.out_of_domain + "')");
    }
    o.remove_out_of_domain = t.out_of_domain == "remove";
    if (t.mpi_buffers != "staged" && t.mpi_buffers != "direct") {
        throw OptionError("--mpi-buffers must be staged or direct (got '" + t.mpi_buffers + "')");
    }
    o.mpi_direct = t.mpi_buffers == "direct";
    o.balancing = parse_balancing(t.balancing);
    o.boundary = parse_boundary(t.boundary);
    o.slip = parse_slip(t.slip);
    o.gauge_reading = parse_gauge_reading(t.gauge_reading);
    o.neighbours = parse_neighbours(t.neighbours);
    o.early_rebuild = parse_on_off(t.early_rebuild, "early-rebuild");
    o.gradient_correction = parse_on_off(t.gradient_correction, "gradient-correction");
    o.no_penetration = parse_no_penetration(t.no_penetration, o.boundary);
    if (o.no_penetration && o.boundary != BoundaryModel::kMdbc) {
        throw OptionError(
            "--no-penetration on needs --boundary mdbc: DBC walls keep the fluid "
            "out by themselves");
    }
    if (!t.memory_limit.empty()) {
        o.device_memory_limit = parse_bytes(t.memory_limit, "device-memory-limit");
        require(o.device_memory_limit > 0, "device-memory-limit", "must be positive",
                t.memory_limit);
    }
    if (!t.fault.empty()) {
        const auto [device, iteration] =
            parse_integer_pair(t.fault, "inject-fault", "DEVICE:ITERATION, e.g. 1:20");
        o.fault_device = static_cast<int>(device);
        o.fault_iteration = iteration;
    }
    if (!t.checkpoint_every.empty()) parse_checkpoint_every(t.checkpoint_every, o);
    check_branch_options(o);
    std::tie(o.trace_first, o.trace_end) =
        parse_integer_pair(t.trace_window, "trace-iterations", "FIRST:END, e.g. 10:30");
    if (o.trace_end <= o.trace_first) {
        throw OptionError("--trace-iterations " + t.trace_window +
                          ": the window [FIRST, END) is empty");
    }
}

}  // namespace

std::optional<RunOptions> parse_command_line(int argc, const char* const argv[], Problem& problem,
                                             std::ostream& help_out) {
    RunOptions o;
    o.dp = problem.default_dp();
    o.t_end = problem.default_t_end();
    TextOptions text;
    po::options_description all("Options of " + problem.name());
    all.add(run_options(o, text))
        .add(checkpoint_options(o, text.checkpoint_every))
        .add(physics_options(o, text))
        .add(measurement_options(o, text))
        .add(analysis_options(o, text));
    po::options_description problem_options(problem.name());
    problem.add_options(problem_options);
    if (!problem_options.options().empty()) all.add(problem_options);

    po::variables_map vm;
    if (!read_variables(argc, argv, all, problem.settings(), vm, help_out)) return std::nullopt;
    apply_text_options(text, vm, o);
    validate(o);
    add_instruments(InstrumentTexts{text.gauges, text.probes, text.walls, text.panels, text.moments,
                                    text.surfaces},
                    problem.domain(o.dp), o);
    problem.check_resolution(o.dp);
    return o;
}

}  // namespace sph
