#include "app/option_groups.h"

#include <sstream>

namespace po = boost::program_options;

namespace sph {

namespace {

// Defaults shown as a person writes them (0.1, not 0.10000000000000001).
template <class T>
po::typed_value<T>* with_default(T* target) {
    std::ostringstream text;
    text << *target;
    return po::value(target)->default_value(*target, text.str());
}

}  // namespace

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

}  // namespace sph
