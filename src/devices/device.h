// One compute device (a GPU, or the CPU) holding a share of the particles and running the kernels.
//
// A device's local arrays hold, in global sorted order, [left external | internal | right
// external]: its own particles (internal) between read-only copies of the neighbouring devices'
// edge slices. DeviceGroup drives the primitives below; a single device is a group of one.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "body_motion.h"
#include "common/trace.h"
#include "damping_zone.h"
#include "devices/device_layout.h"
#include "devices/host_particles.h"
#include "devices/transport.h"
#include "instruments_body.h"
#include "particle_record.h"
#include "sph_params.h"
#include "step_dt.h"

namespace sph {

enum class Stage { kPredictor, kCorrector };
constexpr int kStages = 2;
constexpr int index_of(Stage stage) {
    return stage == Stage::kPredictor ? 0 : 1;
}

// Seconds spent in each kernel family since the device was made.
//
// "Forces seconds", wherever the code or the report says it, has one meaning: the wall time of
// a Forces stage on a device, from its start until the forces of all its internal particles are
// computed. The edge-force sends are not part of it: on a GPU they overlap it on their own
// streams, on a CPU they run in between and are timed as exchange_copy.
struct KernelTimes {
    double build_neibs = 0.0;
    double forces = 0.0;  // Forces seconds, summed over the stages; the stripes below included
    // Of which the edge stripes (each edge slice, on GPUs with more particles to fill the GPU)
    // and the central stripe. On a GPU they run at once, so they add up to more than `forces`.
    double forces_edges = 0.0;
    double forces_centre = 0.0;
    // Of which, under mDBC, the walls' densities from their ghost nodes (before the stripes).
    double boundary = 0.0;
    double minimum_scan = 0.0;
    double euler = 0.0;
    // Edge-force sends: time copying, and how much of it ran while the central forces computed.
    double exchange_copy = 0.0;
    double exchange_hidden = 0.0;
};

struct NeighbourBuild {
    std::uint32_t largest_count = 0;  // largest neighbour count, or kCellOverflow
    bool list_grown = false;          // the list needed more memory than it had (layout())
};

// The ranges of a device's local arrays: [left external | internal | right external], in
// particles. (DeviceLayout is the other thing: how large the arrays are.)
//
// Of the externals, those in the slice beside the device's own (the last left_near of the left
// ones, the first right_near of the right ones) are the only ones an internal particle's
// neighbour list can reach: a slice is one list radius wide. Under mDBC the externals span more
// slices (driver/run_setup.h: halo_slices), so that these near walls find the fluid around their
// ghost nodes: their densities are computed as the device's own walls' are, from lists of that
// fluid; the walls further out are read by nothing here, and have neither lists nor densities.
struct LocalRanges {
    std::uint32_t left = 0, internal = 0, right = 0;
    std::uint32_t left_near = 0, right_near = 0;
    std::uint32_t total() const { return left + internal + right; }
    // [near_begin, near_end): the internal particles and the near externals.
    std::uint32_t near_begin() const { return left - left_near; }
    std::uint32_t near_end() const { return left + internal + right_near; }
    // The particles a device lists the neighbours of: its own, and under mDBC the near
    // externals' walls (NeighbourArgs::fluid_begin, fluid_end keep the fluid to its own).
    std::uint32_t listed_begin(bool mdbc) const { return mdbc ? near_begin() : left; }
    std::uint32_t listed_end(bool mdbc) const { return mdbc ? near_end() : left + internal; }
};

template <class T>
using EndpointOf = Endpoint;
// Where one device keeps each field of a particle array, for copies between devices.
using ParticleEndpoints = ParticleRecord<EndpointOf>;

class Device;

// The moving bodies' laws as the host holds them (body_motion.h): law b is body b's, its series
// samples (t, dx, dy, dz) in `samples` from its first_sample on.
struct BodyTable {
    std::vector<BodyLaw> laws;
    std::vector<double> samples;
    // What the output needs besides: each body's name, and the point its moment is taken about
    // as laid out [m] (a turning body's hinge, else its particles' centre), carried by its law.
    std::vector<std::string> names;
    std::vector<std::array<double, 3>> moment_points;
};

// What the instruments read: a device's sums per plane of cells (Device::measure), which the
// group adds up into each site's sums (DeviceGroup::measure).
struct InstrumentSums {
    std::vector<SiteSums> planes;  // kCellPlanes per site, from a device
    std::vector<SiteSums> sites;   // one per site, over every device
    float front_key = INFINITY;
};

// The forces of one edge slice, bound for a neighbour's external slots (docs/design.md: paper
// section 3.4).
struct ForceSend {
    std::uint32_t first = 0, count = 0;  // local indices of the edge slice's particles
    Endpoint to;                         // where the neighbour keeps those particles' forces
    // `to` may be written once the receiver's last marker is passed; none: `to` is host staging
    // for another rank, free whenever a send begins, or null: no copy, a message reads the
    // forces where they are (`landed` says when).
    Device* receiver = nullptr;
    // When given, called on the host thread once the forces are at `to`, while the rest of the
    // stage may still compute (a message to another rank leaves then).
    std::function<void()> landed;
};

struct ForceSends {
    ForceSend left, right;  // to devices d - 1 and d + 1; count 0 when there is none
};

class Device {
public:
    virtual ~Device() = default;
    Device() = default;
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    virtual std::string description() const = 0;
    // Whether the device computes apart from the host thread that drives it (a GPU), leaving it
    // free, or on that thread (the CPU).
    virtual bool computes_apart_from_host() const = 0;
    // Bytes allocate() would take for this layout, including library scratch.
    virtual std::size_t bytes_needed(const DeviceLayout& layout) const = 0;
    // Throws, before allocating anything, when the layout does not fit.
    virtual void allocate(const DeviceLayout& layout, const SphParams& params) = 0;
    virtual std::size_t capacity() const = 0;
    // The layout allocate() was given.
    virtual const DeviceLayout& layout() const = 0;
    // The memory this device allocates from: devices with the same pool id share it (virtual
    // devices on one GPU, or CPU devices in host memory), and free_bytes is what it has free now.
    struct MemoryPool {
        int id = 0;
        std::uint64_t free_bytes = 0;
    };
    virtual MemoryPool memory_pool() const = 0;
    // Makes `particles` the internal particles (in any order; the next rebuild sorts them).
    virtual void upload(const HostParticles& particles) = 0;
    // Copies the internal particles to the host.
    virtual void download(HostParticles& particles) = 0;
    virtual const LocalRanges& ranges() const = 0;

    // --- BuildNeibs, in the order DeviceGroup calls them ---
    // Sorts local particles [begin, begin + count) by (cell, slab, id), keeps the first `keep` of
    // them as [0, keep) and computes their cells; the rest are dropped.
    virtual void sort(std::uint32_t begin, std::uint32_t count, std::uint32_t keep) = 0;
    // For each cell bound, the first of the `count` sorted particles whose cell is not below it.
    virtual std::vector<std::uint32_t> lower_bounds(std::uint32_t count,
                                                    const std::vector<std::uint32_t>& bounds) = 0;
    virtual ParticleEndpoints current() = 0;   // the arrays the kernels use
    virtual ParticleEndpoints incoming() = 0;  // where the next local arrays are assembled
    // Copies the first `count` particles of the current arrays, every field, into the incoming
    // arrays at `at` (a device's own particles, around which its external slices are placed),
    // with one kernel; done before the device's next kernel starts.
    virtual void copy_own_into_incoming(std::uint32_t count, std::uint32_t at) = 0;
    // Makes the incoming arrays current, laid out as given.
    virtual void commit_incoming(const LocalRanges& ranges) = 0;
    // Cells, cell ranges and the neighbour lists of the internal particles.
    virtual NeighbourBuild build_lists() = 0;

    // --- Time stepping ---
    // Forces on the internal particles. Each send leaves as soon as its edge slice's forces are
    // done, while the rest still compute; it writes the receiver's memory only after the
    // receiver's last record_marker(), which must have returned before this is called. `clock`:
    // the step's, which with the predictor's minima gives the corrector's Forces the step's dt.
    virtual void forces(Stage stage, const ForceSends& sends, const StepClock& clock) = 0;
    virtual Endpoint force_buffer() = 0;  // Vec4 per local particle: external ones are received

    // --- The step's dt, where the devices are (step_dt.h) ---
    // A device keeps, for each stage, one dt minimum per device of the run, and Euler takes its
    // dt from them, so that GPUs of one process step without telling the host first.
    // Makes room for the minima of `devices` devices.
    virtual void prepare_minima(std::uint32_t devices) = 0;
    // Where the device keeps the stage's minima: device d's at d floats on.
    virtual Endpoint minima(Stage stage) = 0;
    // Queues the minimum of the stage's dt bounds over the internal particles (NaN if any is NaN)
    // into slot `slot` of its minima and copies of it to `also_to`, once the stage's forces and
    // sends are done. Another device may wait for them (wait_for_minima) once this has returned.
    virtual void queue_minimum(Stage stage, std::uint32_t slot,
                               const std::vector<Endpoint>& also_to) = 0;
    // The device's next work waits for the minima that `from` queued into its memory.
    virtual void wait_for_minima(Stage stage, const std::vector<Device*>& from) = 0;
    // Sets the stage's minima from the host (for devices of other ranks).
    virtual void set_minima(Stage stage, const std::vector<float>& minima) = 0;
    // The stage's minima once they are all there (after wait_for_minima or set_minima); waits.
    virtual std::vector<float> read_minima(Stage stage) = 0;
    // Euler on every local particle with the step's dt from the device's own minima (euler_dt);
    // none where that dt is unusable, or, in the corrector, where a corrector minimum is NaN.
    virtual void euler(Stage stage, const StepClock& clock) = 0;
    // Marks the end of the work queued so far (the last euler): from here on, neighbours may
    // overwrite this device's external forces.
    virtual void record_marker() = 0;
    // The host waits until the work before the last record_marker() is done.
    virtual void wait_for_marker() = 0;
    // Forces seconds (KernelTimes) of the last forces(stage), for the load balancer; known once
    // read_minima(stage) has returned.
    virtual double forces_seconds(Stage stage) = 0;
    // Makes the device fail the way a broken device would (a failed CUDA call on a GPU), to test
    // that every worker stops.
    virtual void inject_fault() = 0;

    // The instruments on the particles as they are between steps (instruments_body.h): the
    // sums of the internal particles at each of the sites set (at most layout.instrument_sites;
    // set once after allocate: DamBreak's 3,400 sites are 260 kB, and compared at every
    // measurement they cost more host time than its launches), and the smallest front key
    // (+infinity without a tracker or a leading particle here). start_measuring queues the
    // measurement behind the work queued so far (a GPU does not wait for it); finish_measuring
    // waits for it and returns it, and may be called after later steps were queued. One
    // measurement at a time.
    virtual void set_instrument_sites(const std::vector<InstrumentSite>& sites) = 0;
    // The moving bodies' laws, which Euler evaluates (set once after allocate; none: no bodies).
    virtual void set_bodies(const BodyTable& bodies) = 0;
    // The loads of the internal particles on the bodies (kernels/body_loads_body.h), waiting for
    // the work queued so far: kBodyLoadSums a body, in units of 1 / kLoadScale, two's complement,
    // about each body's moment point (`moment_points`, one a body); of the state between steps,
    // or, `predicted`, of the predicted state (what a corrector's Forces read).
    virtual std::vector<unsigned long long> body_loads(const std::vector<FixedPos>& moment_points,
                                                       bool predicted) = 0;
    // The floating bodies' poses for the next Euler (body_motion.h: BodyPose), one a body.
    virtual void set_body_poses(const std::vector<BodyPose>& poses) = 0;
    // Where the corrector damps the water (damping_zone.h); set once after allocate.
    virtual void set_damping(const std::vector<DampingZone>& zones) = 0;
    virtual void start_measuring(const FrontSpec* front) = 0;
    virtual InstrumentSums finish_measuring() = 0;
    InstrumentSums measure(const FrontSpec* front) {
        start_measuring(front);
        return finish_measuring();
    }
    // A measurement under way reads the arrays that were current when it started and the cell
    // ranges. A rebuild's first sort writes neither (it gathers into the incoming arrays), so
    // a GPU sorts beside the measurement; the rebuild calls this before anything of it writes
    // what the measurement reads (migration, the second sort, the lists), and the host waits
    // for the measurement here. Nothing on a device that measures at once (the CPU).
    virtual void wait_for_measurement() {}
    // Testing: every measurement from now on waits `microseconds` on the device before it reads
    // anything, so that the steps queued after it would overwrite what it reads unless they wait
    // for it. Nothing on a device that measures at once (the CPU).
    virtual void hold_measurements_for_testing(std::uint32_t /*microseconds*/) {}

    // From now on adds the device's kernels and copies to `trace` as process `process` (one
    // track per stream); nullptr stops, once what is pending has been added.
    virtual void trace_into(Trace* trace, int process) = 0;

    // Waits for the device and returns the kernel times so far.
    virtual KernelTimes kernel_times() = 0;
    virtual std::size_t bytes_allocated() const = 0;
    virtual Transport& transport() = 0;
};

}  // namespace sph
