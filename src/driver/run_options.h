// Everything a user sets for a run, as plain settings: app/command_line.h fills them from the
// command line and a config file; tests set them directly.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bodies/body_changes.h"
#include "common/errors.h"
#include "driver/geometry_change.h"
#include "instruments.h"
#include "sph_params.h"

namespace sph {

struct RunState;

enum class BackendChoice { kAuto, kCpu, kCuda };

std::string to_string(BackendChoice backend);

// --devices, read once where the options are parsed.
struct DeviceSelection {
    // CUDA: one device per entry, on that GPU ("0,1"; "0,0": two devices on GPU 0).
    std::vector<int> gpu_ids{0};
    // CPU: the number of virtual devices ("3"); 0 when the list named several GPUs.
    int cpu_devices = 1;

    static DeviceSelection cpu(int count) { return DeviceSelection{{count}, count}; }
    static DeviceSelection gpus(std::vector<int> ids) {
        return DeviceSelection{ids, ids.size() == 1 && ids[0] > 0 ? ids[0] : 0};
    }
    // "0,1", as a user would write it.
    std::string gpu_list() const;
};

struct RunOptions {
    BackendChoice backend = BackendChoice::kAuto;
    DeviceSelection devices;  // default: GPU 0, or one CPU device
    double dp = 0.0;          // particle spacing [m]; the problem's default when not given
    double t_end = 0.0;       // [s]; the problem's default when not given
    std::string output_dir = "output";
    double output_every = 0.1;  // simulated seconds between output frames
    bool write_output = true;   // false: no frames and no gauges.csv (the report is written)
    bool write_frames = true;   // particle frames (.pvd/.vtu), with write_output
    // k: iterations between neighbour-list rebuilds. With list_skin, the list's margin for one
    // iteration's motion (0.01 of 2h) is what k = 10 with a skin of 0.1 gave; the thinner list
    // made whole runs 1-2.5 % faster on the H100 (DamBreak 0-1 s, SPHERIC 6 s; bench/NOTES.md
    // entry 8), the benchmark's first 1,000 iterations 6.5 %.
    static constexpr int kDefaultRebuildEvery = 8;
    int rebuild_every = kDefaultRebuildEvery;
    // Rebuild sooner than k iterations where the next one could take the fastest particle past
    // the list's margin (driver/list_margin.h), so that no pair closing to 2h goes unlisted.
    bool early_rebuild = true;
    // How Forces finds neighbours (--neighbours): a list of each particle's neighbours, built at
    // every rebuild (fast; max_neighbours entries of 1 byte per particle), or the cells around
    // the particle, walked every time (no list: the lean mode, for the largest runs). The two
    // give bitwise identical results.
    enum class NeighbourSearch { kList, kCells };
    NeighbourSearch neighbours = NeighbourSearch::kList;
    int max_neighbours = 128;
    // The list radius is 2h (1 + list_skin): its margin covers the motion between rebuilds.
    static constexpr double kDefaultListSkin = 0.08;
    double list_skin = kDefaultListSkin;
    double h_factor = 1.3;    // h = h_factor * dp
    double c0_factor = 20.0;  // c0 = c0_factor * sqrt(g H)
    double cfl = 0.3;
    double viscosity_alpha = 0.05;
    double diffusion_delta = 0.1;
    double rho0 = 1000.0;
    double gamma = 7.0;
    double gravity = 9.81;
    BoundaryModel boundary = BoundaryModel::kDbc;  // --boundary
    bool gradient_correction = false;              // --gradient-correction
    bool no_penetration = false;                   // --no-penetration (kernels/wall_contact.h)
    // --slip: the walls' viscous term as each problem sets it, or the same for every wall.
    enum class Slip { kProblem, kNoSlip, kFreeSlip };
    Slip slip = Slip::kProblem;
    // --perturb, --perturb-size: ensemble members, the fluid started a little off its lattice
    // (driver/start_perturbation.h). Seed 0: the lattice itself.
    std::int64_t perturb_seed = 0;
    double perturb_size = 1e-3;  // the largest move along each axis [dp]
    int threads = 0;             // OpenMP threads of the CPU back end; 0 = OpenMP's default
    std::uint64_t device_memory_limit = 0;  // bytes a device may use; 0: what it has
    // A posteriori load balancing (docs/design.md: paper section 3.5): on by default with several
    // devices.
    enum class Balancing { kAuto, kOn, kOff } balancing = Balancing::kAuto;
    double lb_threshold = 0.5;  // H_LB: slices move when a device is H_LB x T_slice off the mean
    bool remove_out_of_domain = true;  // else a particle leaving the domain stops the run
    std::uint32_t edge_stripe = 0;     // particles per edge stripe; 0: enough to fill a GPU
    bool mpi_direct = false;           // --mpi-buffers direct: messages from and into device memory
    int fault_device = -1;             // testing: this device fails ...
    long fault_iteration = -1;         // ... at this iteration
    int fault_output_frame = -1;       // testing: writing this frame fails (a full disk)
    double status_interval = 1.0;      // wall seconds between status lines on a terminal
    // Measurement (instruments/gauges.h): gauges, probes and wall sensors added on the command
    // line, named G1, G2, ..., Q1, Q2, ... and W1, W2, ... in the order given, measured with the
    // problem's own unless --no-instruments; one row of <output-dir>/gauges.csv every gauge_every
    // simulated seconds (with gauge_average, each the mean over its interval of readings taken
    // at every iteration: instruments/interval_average.h), and with gauge_filter_hz > 0 the
    // series low-passed to that cut-off in gauges_filtered.csv at the end
    // (instruments/low_pass.h; with gauge_average the readings at every iteration, at the rows'
    // times, and their peaks in gauges_peaks.csv: instruments/streaming_low_pass.h).
    std::vector<Gauge> gauges;
    std::vector<Probe> probes;
    std::vector<WallSensor> walls;
    double gauge_every = 0.01;
    double gauge_filter_hz = 0.0;
    bool gauge_average = false;
    GaugeReading gauge_reading = GaugeReading::kSurface;  // every gauge's
    bool problem_instruments = true;
    // Checkpoints (checkpoint/): one every checkpoint_every simulated seconds and one every
    // checkpoint_wall_seconds of wall time (0: none of that kind), at the next rebuild, into
    // checkpoint_dir (empty: <output_dir>/checkpoints); the newest two are kept. A run
    // interrupted by SIGINT or SIGTERM writes one too. restart_from: a checkpoint file to go on
    // from, or "latest" (the newest in checkpoint_dir that verifies).
    double checkpoint_every = 0.0;
    double checkpoint_wall_seconds = 0.0;
    std::string checkpoint_dir;
    std::string restart_from;
    // What-if branches (branches/branch_runner.h): the branch file; for the base run, the decision
    // times at which it writes <output_dir>/decision_<k>.chk (at the first rebuild from each)
    // and after the last of which it stops; for a branch, the settings its restart may find
    // changed.
    std::string branches_file;
    std::vector<double> decision_times;
    std::vector<std::string> changes_allowed;
    // A branch's changes to the walls, applied once to the state it goes on from (not passed on
    // to its own branches, which start from its state); whether it adds instruments (their
    // columns in gauges.csv read nan before its decision point).
    std::vector<GeometryChange> geometry_changes;
    bool adds_instruments = false;
    // A branch's changes to the bodies' laws and masses, and its parents' (settings: kept by its
    // own branches).
    std::vector<BodyChange> body_changes;
    // --scenario: the state to go on from, handed over in memory rather than read from
    // restart_from (which then only names it in messages).
    std::shared_ptr<const RunState> restart_state;
    // --scenario: the decision point's state is kept (Simulation::decision_state), not written.
    bool keep_decision_in_memory = false;
    // Branch simulations that run at once on each device of the run (--branch-slots): more than
    // one shares a GPU's memory and time; fewer run where memory is short.
    int branch_slots = 1;
    std::string scenario;  // --scenario NAME: that branch of the file alone, from t = 0
    std::string checkpoint_folder() const {
        return checkpoint_dir.empty() ? output_dir + "/checkpoints" : checkpoint_dir;
    }
    // A timeline (common/trace.h) of iterations [trace_first, trace_end), written to trace_file.
    std::string trace_file;
    long trace_first = 10, trace_end = 30;
};

}  // namespace sph
