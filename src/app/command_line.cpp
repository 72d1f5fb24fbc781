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

// Option values that arrive as text and are read once parsing is done.
struct TextOptions {
    std::string backend = "auto", devices, config, memory_limit, fault, balancing = "auto",
                mpi_buffers = "staged", out_of_domain = "remove", trace_window = "10:30",
                boundary = "dbc", slip = "problem", neighbours = "list", early_rebuild = "on",
                gradient_correction = "off", no_penetration = "auto", checkpoint_every,
                gauge_reading = "surface";
    std::vector<std::string> gauges, probes, walls, panels, moments, surfaces;
};

// clang-format off
po::options_description run_options(RunOptions& o, TextOptions& t) {
    po::options_description run("Run");
    run.add_options()
        ("help,h", "print this help and exit")
        ("config", po::value(&t.config), "read options from this file (lines of name = value)")
        ("backend", po::value(&t.backend)->default_value(t.backend),
         "auto | cpu | cuda (auto: CUDA when a GPU is visible, else CPU)")
        ("devices", po::value(&t.devices)->default_value("", "0 or 1"),
         "CUDA: GPU ids, e.g. 0,1 (0,0: two devices on one GPU); CPU: number of virtual devices")
        ("threads", with_default(&o.threads),
         "OpenMP threads of each CPU device (0: the machine's threads shared among devices)")
        ("lb", po::value(&t.balancing)->default_value(t.balancing),
         "load balancing between devices: on | off | auto (on with more than one device); "
         "steps are logged in <output-dir>/load_balance.csv")
        ("lb-threshold", with_default(&o.lb_threshold),
         "H_LB: a device gives or takes a slice when its Forces time is H_LB slice-times off "
         "the mean [-]")
        ("mpi-buffers", po::value(&t.mpi_buffers)->default_value(t.mpi_buffers),
         "under mpirun, how messages between devices of different ranks travel: staged (through "
         "page-locked host memory) | direct (from and into the devices' memory; GPUs need a "
         "CUDA-aware MPI, which the log's MPI line names)")
        ("edge-stripe", with_default(&o.edge_stripe),
         "CUDA: particles in each edge stripe of Forces, computed first so that edge forces "
         "travel while the centre computes (0: enough to fill the GPU)")
        ("device-memory-limit", po::value(&t.memory_limit),
         "bytes each device may use, e.g. 512M or 20G (to share a GPU, or to test splitting)")
        ("dp", with_default(&o.dp), "particle spacing [m]")
        ("t-end", with_default(&o.t_end), "simulated end time [s]")
        ("output-dir", with_default(&o.output_dir),
         "folder for the .pvd/.vtu series and the run report")
        ("output-every", with_default(&o.output_every), "simulated time between output frames [s]")
        ("out-of-domain", po::value(&t.out_of_domain)->default_value(t.out_of_domain),
         "a particle leaving the domain, or fluid its problem's reach (beyond two layers into "
         "a tank's walls): remove (counted in the log and the report) | stop (the run fails, "
         "saying which particle and where)")
        ("no-output", "write no particle output and no gauges.csv (the run report is still written)")
        ("no-frames", "write no particle frames, but gauges.csv and the run report")
        ("status-interval", with_default(&o.status_interval),
         "wall time between status lines on a terminal [s]");
    return run;
}

po::options_description physics_options(RunOptions& o, TextOptions& t) {
    po::options_description physics("Physics and numerics");
    physics.add_options()
        ("boundary", po::value(&t.boundary)->default_value(t.boundary),
         "walls: dbc (dynamic boundary particles, density by continuity) | mdbc (modified DBC: "
         "density extrapolated from the fluid around each wall particle's ghost node)")
        ("slip", po::value(&t.slip)->default_value(t.slip),
         "walls' viscous term: problem (as the problem sets each wall) | no-slip (every wall "
         "drags the fluid as a wall at rest) | free-slip (no wall exerts artificial viscosity)")
        ("gradient-correction", po::value(&t.gradient_correction)->default_value(t.gradient_correction),
         "on: the fluid's pressure force through a kernel gradient corrected to be exact for "
         "linear pressure fields (Bonet & Lok), faded out at the free surface; about 5 % of "
         "the speed | off")
        ("no-penetration", po::value(&t.no_penetration)->default_value(t.no_penetration),
         "on (with --boundary mdbc): a fluid particle closing on a wall within dp/4 of its "
         "surface stops closing, so that spray cannot fly into the walls and be thrown back out "
         "| off | auto (on under mdbc, off under dbc)")
        ("h-factor", with_default(&o.h_factor), "smoothing length h = h-factor * dp [-]")
        ("perturb", with_default(&o.perturb_seed),
         "SEED: start each fluid particle up to --perturb-size dp off its place along each axis, "
         "by amounts drawn from SEED: runs differing only in SEED are members of an ensemble, "
         "whose spread shows what an impact's details decide (its peak, the waves it sends "
         "back); 0: no perturbation")
        ("perturb-size", with_default(&o.perturb_size),
         "the largest --perturb move along each axis [dp]")
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
         "iterations between neighbour-list rebuilds, at most [-]")
        ("early-rebuild", po::value(&t.early_rebuild)->default_value(t.early_rebuild),
         "on: rebuild sooner where the next iteration could take the fastest particle past "
         "the list's margin (2h x list-skin) | off: every rebuild-every iterations, whatever "
         "the flow (the report counts the intervals that may have missed pairs)")
        ("neighbours", po::value(&t.neighbours)->default_value(t.neighbours),
         "how Forces finds neighbours: list (built at each rebuild; fast, 1 byte per entry) | "
         "cells (the cells around each particle, walked every time: no list, about 100 bytes "
         "per particle under dbc; the same results)")
        ("max-neighbours", with_default(&o.max_neighbours),
         "neighbour-list entries per particle (--neighbours list) [-]")
        ("list-skin", with_default(&o.list_skin),
         "neighbour-list radius is 2h (1 + list-skin) [-]");
    return physics;
}

po::options_description measurement_options(RunOptions& o, TextOptions& t) {
    po::options_description measure("Gauges and probes (written to <output-dir>/gauges.csv)");
    measure.add_options()
        ("gauge", po::value(&t.gauges)->composing(),
         "X,Y: add a water-height gauge (a vertical line) named G<n> [m]; repeatable")
        ("probe", po::value(&t.probes)->composing(),
         "X,Y,Z: add a pressure probe named Q<n> [m]; repeatable")
        ("wall-sensor", po::value(&t.walls)->composing(),
         "X,Y,Z,FACE,D: add a pressure sensor named W<n> on a wall: a disc of diameter D [m] "
         "centred at X,Y,Z on the wall's face, FACE the direction from the wall into the water "
         "(+x, -x, +y, -y, +z or -z); reads the wall's pressure over the disc; repeatable")
        ("wall-panel", po::value(&t.panels)->composing(),
         "X0,Y0,Z0,X1,Y1,Z1,FACE: add a load panel named F<n> on a wall: the rectangle with "
         "those opposite corners on the wall's face, FACE as for --wall-sensor; reads the force "
         "the water exerts on it [N] (the wall's pressure integrated over it); repeatable")
        ("wall-moment", po::value(&t.moments)->composing(),
         "X0,Y0,Z0,X1,Y1,Z1,FACE,ARM: add a moment panel named M<n>: the rectangle of "
         "--wall-panel; reads the moment of the water's force on it about one of its edges "
         "[N m]: ARM +z about its lowest edge (a wall's overturning moment about its foot), -z "
         "about its top edge (a gate hung at its top); +x, -x, +y, -y likewise where they lie "
         "along the face; repeatable")
        ("wall-surface", po::value(&t.surfaces)->composing(),
         "X0,Y0,Z0,X1,Y1,Z1,AXIS: add a surface panel named FS<n>: reads the force the water "
         "exerts on the walls' surface inside the box with those opposite corners, whatever its "
         "shape (a mesh's tilted or curved faces), along AXIS (+x, -x, +y, -y, +z or -z) [N]; "
         "mDBC only; repeatable")
        ("gauge-reading", po::value(&t.gauge_reading)->default_value(t.gauge_reading),
         "what every gauge reads: surface (the free surface of the water standing on the "
         "floor; water above an air pocket is not read) | wetted (the length of the line under "
         "water, air pockets left out, as a wave probe's wires read it)")
        ("gauge-filter", with_default(&o.gauge_filter_hz),
         "cut-off [Hz] of a low-pass filter (Gaussian, zero phase, -3 dB at the cut-off) of every "
         "column of gauges.csv, written to gauges_filtered.csv at the end of the run: of the rows, "
         "or with --gauge-average of the readings at every iteration, at the rows' times, and "
         "then also gauges_peaks.csv (each column's largest and smallest filtered value over "
         "every iteration, and when); 0: none")
        ("gauge-every", with_default(&o.gauge_every),
         "simulated time between rows of gauges.csv [s]")
        ("gauge-average",
         "each row of gauges.csv after the first holds the mean of the readings over the "
         "interval since the row before (the instruments are read at every iteration), as a "
         "sensor sampled behind an anti-aliasing filter would; without it a row holds the "
         "readings at its time, which alias the pressures' acoustic ringing")
        ("no-instruments", "drop the problem's own gauges, probes and front tracker");
    return measure;
}

po::options_description analysis_options(RunOptions& o, TextOptions& t) {
    po::options_description analysis("Performance analysis and testing");
    analysis.add_options()
        ("trace", po::value(&o.trace_file),
         "write a timeline of --trace-iterations to this file: Chrome trace-event JSON with one "
         "track per device stream (open it in ui.perfetto.dev)")
        ("trace-iterations", po::value(&t.trace_window)->default_value(t.trace_window),
         "A:B: the iterations [A, B) that --trace records")
        ("inject-fault", po::value(&t.fault),
         "D:I: device D fails at iteration I, to test that every device thread stops");
    return analysis;
}
// clang-format on

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

// Reads argv, then the config file (the command line wins). Prints the help and returns false
// for --help.
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
