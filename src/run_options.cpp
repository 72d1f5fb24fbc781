#include "run_options.h"

#include <boost/program_options.hpp>

#include <fstream>
#include <sstream>

#include "problem.h"

namespace po = boost::program_options;

namespace sph {

std::string to_string(BackendChoice backend) {
    switch (backend) {
        case BackendChoice::kCpu:
            return "cpu";
        case BackendChoice::kCuda:
            return "cuda";
        default:
            return "auto";
    }
}

namespace {

BackendChoice parse_backend(const std::string& text) {
    if (text == "auto") return BackendChoice::kAuto;
    if (text == "cpu") return BackendChoice::kCpu;
    if (text == "cuda") return BackendChoice::kCuda;
    throw OptionError("--backend must be auto, cpu or cuda (got '" + text + "')");
}

// Defaults shown as a person writes them (0.1, not 0.10000000000000001).
template <class T>
po::typed_value<T>* with_default(T* target) {
    std::ostringstream text;
    text << *target;
    return po::value(target)->default_value(*target, text.str());
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
    require(o.list_skin >= 0.0 && o.list_skin <= 1.0, "list-skin", "must be in [0, 1]",
            o.list_skin);
    require(o.h_factor >= 1.0 && o.h_factor <= 2.0, "h-factor", "must be in [1, 2]", o.h_factor);
    require(o.c0_factor > 0.0, "c0-factor", "must be positive", o.c0_factor);
    require(o.cfl > 0.0 && o.cfl <= 1.0, "cfl", "must be in (0, 1]", o.cfl);
    require(o.viscosity_alpha >= 0.0, "alpha", "must not be negative", o.viscosity_alpha);
    require(o.diffusion_delta >= 0.0, "delta", "must not be negative", o.diffusion_delta);
    require(o.rho0 > 0.0, "rho0", "must be positive", o.rho0);
    require(o.gamma >= 1.0, "gamma", "must be at least 1", o.gamma);
    require(o.threads >= 0, "threads", "must not be negative", o.threads);
    require(o.status_interval > 0.0, "status-interval", "must be positive", o.status_interval);
}

}  // namespace

std::vector<int> parse_gpu_list(const std::string& text) {
    std::vector<int> ids;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos ||
            item.size() > 4) {
            throw OptionError("--devices must list GPU ids like 0,1 (got '" + text + "')");
        }
        ids.push_back(std::stoi(item));
    }
    if (ids.empty()) throw OptionError("--devices must list GPU ids like 0,1 (got '" + text + "')");
    return ids;
}

int parse_device_count(const std::string& text) {
    if (text.empty()) return 1;
    if (text.find_first_not_of("0123456789") != std::string::npos || text.size() > 4 ||
        std::stoi(text) < 1) {
        throw OptionError("--devices with the CPU back end is a number of devices >= 1 (got '" +
                          text + "')");
    }
    return std::stoi(text);
}

std::optional<RunOptions> parse_command_line(int argc, const char* const argv[], Problem& problem,
                                             std::ostream& help_out) {
    RunOptions o;
    o.dp = problem.default_dp();
    o.t_end = problem.default_t_end();
    std::string backend = "auto", config;

    // clang-format off
    po::options_description run("Run");
    run.add_options()
        ("help,h", "print this help and exit")
        ("config", po::value(&config), "read options from this file (lines of name = value)")
        ("backend", po::value(&backend)->default_value("auto"),
         "auto | cpu | cuda (auto: CUDA when a GPU is visible, else CPU)")
        ("devices", po::value(&o.devices)->default_value("", "0 or 1"),
         "CUDA: GPU ids, e.g. 0,1 (0,0: two devices on one GPU); CPU: number of virtual devices")
        ("threads", with_default(&o.threads),
         "OpenMP threads of each CPU device (0: the machine's threads shared among devices)")
        ("dp", with_default(&o.dp), "particle spacing [m]")
        ("t-end", with_default(&o.t_end), "simulated end time [s]")
        ("output-dir", with_default(&o.output_dir),
         "folder for the .pvd/.vtu series and the run report")
        ("output-every", with_default(&o.output_every), "simulated time between output frames [s]")
        ("no-output", "write no particle output (the run report is still written)")
        ("status-interval", with_default(&o.status_interval),
         "wall time between status lines on a terminal [s]");
    po::options_description physics("Physics and numerics");
    physics.add_options()
        ("h-factor", with_default(&o.h_factor), "smoothing length h = h-factor * dp [-]")
        ("c0-factor", with_default(&o.c0_factor),
         "speed of sound c0 = c0-factor * sqrt(g H), H the still-water depth [-]")
        ("cfl", with_default(&o.cfl), "Courant number [-]")
        ("alpha", with_default(&o.viscosity_alpha),
         "artificial viscosity coefficient (Monaghan) [-]")
        ("delta", with_default(&o.diffusion_delta),
         "density diffusion coefficient (Molteni-Colagrossi) [-]")
        ("rho0", with_default(&o.rho0), "reference density [kg/m^3]")
        ("gamma", with_default(&o.gamma), "Tait exponent [-]")
        ("gravity", with_default(&o.gravity), "gravitational acceleration, along -z [m/s^2]")
        ("rebuild-every", with_default(&o.rebuild_every),
         "iterations between neighbour-list rebuilds [-]")
        ("max-neighbours", with_default(&o.max_neighbours),
         "neighbour-list entries per particle [-]")
        ("list-skin", with_default(&o.list_skin),
         "neighbour-list radius is 2h (1 + list-skin) [-]");
    // clang-format on
    po::options_description problem_options(problem.name());
    problem.add_options(problem_options);
    po::options_description all("Options of " + problem.name());
    all.add(run).add(physics);
    if (!problem_options.options().empty()) all.add(problem_options);

    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, all), vm);
        if (vm.count("config")) {
            const std::string path = vm["config"].as<std::string>();
            std::ifstream file(path);
            if (!file) throw OptionError("--config: cannot read '" + path + "'");
            po::store(po::parse_config_file(file, all), vm);  // the command line wins
        }
        if (vm.count("help")) {
            help_out << all << "\n";
            return std::nullopt;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        throw OptionError(e.what());
    }
    o.backend = parse_backend(backend);
    o.write_output = vm.count("no-output") == 0;
    validate(o);
    if (o.backend == BackendChoice::kCpu) {
        parse_device_count(o.devices);
    } else if (!o.devices.empty()) {
        parse_gpu_list(o.devices);
    }
    problem.check_resolution(o.dp);
    return o;
}

}  // namespace sph
