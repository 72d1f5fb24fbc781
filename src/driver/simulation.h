// The simulation driver: set-up, the time loop, output, status and the run report.
#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>

#include "bodies/body_log.h"
#include "bodies/floating_bodies.h"
#include "boundaries/damping_zones.h"
#include "cell_grid.h"
#include "checkpoint/checkpoint_folder.h"
#include "checkpoint/run_state.h"
#include "common/clock.h"
#include "common/errors.h"
#include "common/trace.h"
#include "devices/device.h"
#include "devices/device_capacity.h"
#include "devices/host_particles.h"
#include "driver/list_margin.h"
#include "driver/restart.h"
#include "driver/run_options.h"
#include "driver/run_outputs.h"
#include "driver/run_setup.h"
#include "instruments/device_readings.h"
#include "multi_device/device_group.h"
#include "multi_device/load_balance_log.h"
#include "multi_device/load_balancer.h"
#include "problem.h"
#include "ranks/ranks.h"
#include "report/run_report.h"
#include "sph_params.h"

namespace sph {

// Makes CPU device number d of a run; tests use it to put instrumented devices in a run.
using CpuDeviceMaker = std::function<std::unique_ptr<Device>(int d, int threads)>;

class Simulation {
public:
    // Lays out the particles, picks the back end, checks memory and uploads. Throws OptionError
    // for a back end or device that cannot be had. `make_cpu_device`, when given, makes the
    // devices of the CPU back end. Under several MPI `ranks` (a collective: every rank makes its
    // Simulation with the same options) each rank brings the devices its --devices names and
    // the simulation spans them all; rank 0 writes the output, reports and checkpoints.
    Simulation(const Problem& problem, const RunOptions& options, int split_axis,
               const CpuDeviceMaker& make_cpu_device = {}, const Ranks& ranks = one_process());

    // Runs to t_end with output and status lines on `log`. On failure the report in the output
    // folder says "failed" and why, the output written so far stays valid, and this throws.
    RunReport run(std::ostream& log);

    // One iteration: rebuild (every k), then predictor and corrector. Throws SimulationError.
    void step();

    // Every particle, gathered from the devices (in device order); across ranks, a collective
    // whose result is whole on rank 0 only.
    HostParticles particles() { return download(); }
    // Each device's particles (across ranks as particles()).
    std::vector<HostParticles> particles_per_device() { return group_->download(); }
    int device_count() const { return group_->size(); }
    DeviceGroup& group() { return *group_; }
    double time() const { return time_; }
    std::uint64_t removed_particles() const { return removed_; }
    long iteration() const { return iteration_; }
    const SphParams& params() const { return params_; }
    const CellGrid& grid() const { return grid_; }
    const std::string& backend_note() const { return backend_note_; }
    // The run's instruments (the problem's and the options'), and their readings now, evaluated
    // on the devices: measure(), or start_measuring() and, after later steps if wanted,
    // finish_measuring() (the readings of when it started).
    const Instruments& instruments() const { return instruments_; }
    InstrumentReadings measure() {
        start_measuring();
        return finish_measuring();
    }
    void start_measuring();
    InstrumentReadings finish_measuring();

    // The whole state between iterations, for a checkpoint (checkpoint/run_state.h), with the
    // output series at `outputs` and `loop_seconds` of this run's time loop so far. Take it only
    // where the next iteration rebuilds (at_rebuild()): only there does a restart go on bitwise.
    RunState capture_state(const OutputPositions& outputs, double loop_seconds);
    // The next iteration rebuilds k iterations after the last rebuild, or sooner where it could
    // take the fastest particle past the list's margin (--early-rebuild; list_margin.h).
    bool at_rebuild() const;
    // Writes a checkpoint into the checkpoint folder; returns its path. `gather_seconds`, when
    // given, receives the time spent gathering the state from the devices.
    std::string write_checkpoint_now(const OutputPositions& outputs, double loop_seconds,
                                     double* gather_seconds = nullptr);
    // With options.keep_decision_in_memory: the state at the last decision point reached.
    std::shared_ptr<const RunState> decision_state() const { return decision_state_; }
    // List rebuilds so far, and those sooner than --rebuild-every for the list's margin.
    long rebuilds() const { return rebuilds_; }
    long early_rebuilds() const { return early_rebuilds_; }
    // Restarts before this run (0 unless it went on from a checkpoint).
    int restarts() const { return restarts_; }

private:
    // Whether this process writes the run's files: rank 0 of a simulation across ranks.
    bool writes_files() const { return ranks_->rank() == 0; }
    // At a rebuild, across ranks: whether to stop for a signal and whether a checkpoint is due,
    // as one (any rank's signal; rank 0's clock).
    std::pair<int, bool> agree_on_checkpoint(int signal, bool due) const;
    // Every device's description, every rank's (a collective across ranks).
    std::vector<std::string> every_ranks_descriptions() const;
    // The report's devices, every rank's (a collective across ranks).
    std::vector<DeviceReport> gathered_device_reports();
    // Set-up, in the order the constructor takes it.
    void join_ranks(const std::vector<std::unique_ptr<Device>>& devices);
    void check_same_run_on_every_rank(std::vector<Setting> settings) const;
    void check_device_count(int devices) const;
    DeviceLayout first_layout() const;
    LaidOut lay_out_checked(const std::vector<std::unique_ptr<Device>>& devices,
                            std::uint64_t held);
    void check_halo(int devices, int halo) const;
    void take_up_checkpoint(const std::vector<std::unique_ptr<Device>>& devices, std::uint64_t held,
                            LaidOut& laid);
    void size_layout(const LaidOut& laid, DeviceLayout& layout) const;
    void set_up_instruments(const LaidOut& laid);
    void set_id_bits(const LaidOut& laid, DeviceLayout& layout) const;
    SliceMap first_split(const std::vector<std::unique_ptr<Device>>& devices,
                         const DeviceLayout& layout, const LaidOut& laid, int halo) const;
    void allocate(std::vector<std::unique_ptr<Device>>& devices, DeviceLayout layout,
                  const ShareSizes& sizes);
    void make_group(std::vector<std::unique_ptr<Device>> devices, SliceMap slices);

    HostParticles download();
    // One iteration and the checks on what the devices report (simulation_step.cpp).
    void check_neighbours(std::uint32_t largest);
    void check_list_margin();
    void note_list_growth();
    // The devices' step (or rebuild alone) that `request` asks for, traced as `what`; a device's
    // failure or a particle outside the grid stops the run.
    StepResult run_devices(const StepRequest& request, const char* what);
    void count_removed(std::uint64_t removed);
    void sort_devices();
    void advance();
    void balance();
    void start_trace();
    void finish_trace();
    void add_device_reports(RunReport& report);
    // The time loop and its pieces (simulation_run.cpp).
    struct LoopProgress;
    void time_loop(std::ostream& log, RunReport& report);
    std::unique_ptr<RunOutputs> make_outputs();
    void start_outputs(RunOutputs& outputs, RunReport& report);
    void iterate(RunOutputs& outputs, LoopProgress& progress, RunReport& report, std::ostream& log);
    void write_outputs_due(RunOutputs& outputs, double previous, bool checkpointing,
                           std::exception_ptr& failure, RunReport& report, std::ostream& log);
    void checkpoint_if_asked(RunOutputs& outputs, LoopProgress& progress, RunReport& report,
                             std::ostream& log);
    void fill_loop_report(const LoopProgress& progress, RunReport& report) const;
    void log_run_start(const RunReport& report, std::ostream& log) const;
    // Checkpoints (simulation_checkpoints.cpp).
    void resume(const RunState& saved, bool same_split);
    void schedule_checkpoints();  // from now: the next by simulated time, the wall clock
    // bodies.csv (simulation_bodies.cpp): opened (a fresh run's row at t = 0 written), and a row
    // at each step that is due after the one that ended at `previous`.
    void open_body_log();
    // What the devices' group calls for the floating bodies at each stage (floating_).
    DeviceGroup::FloatingHook floating_hook();
    void log_bodies(double previous, bool last);
    bool checkpoint_due() const;
    // Writes the row under way; a frame that failed in the background fails the run after a
    // last checkpoint (rethrow_after_last_checkpoint).
    void settle_for_checkpoint(RunOutputs& outputs, double loop_seconds, RunReport& report,
                               std::ostream& log);
    // Writes one, counts it in `report`, logs its size and time, schedules the next.
    void checkpoint(RunOutputs& outputs, double loop_seconds, RunReport& report, std::ostream& log);
    // The end checkpoint (simulation_checkpoints.cpp: why it is the last rebuild before the end).
    bool periodic_checkpoints() const;
    bool end_may_come_before_next_rebuild() const;
    void keep_end_candidate(RunOutputs& outputs, double loop_seconds, RunReport& report,
                            std::ostream& log);
    void write_end_checkpoint(RunReport& report, std::ostream& log);
    std::string write_into_folder(const RunState& state);
    // At a rebuild past the next --branches decision time: its checkpoint. True for the last.
    bool take_decision_point(RunOutputs& outputs, double loop_seconds, std::ostream& log);
    [[noreturn]] void rethrow_after_last_checkpoint(std::exception_ptr failure, RunOutputs& outputs,
                                                    double loop_seconds, RunReport& report,
                                                    std::ostream& log);
    void write_failed_report(RunReport& report, const std::string& path);
    // report.html into the output folder; a failure is a warning on `log` (run_report_files.h).
    void write_report_page(const RunReport& report, std::ostream& log) const;
    [[noreturn]] void fail_out_of_domain();
    [[noreturn]] void fail_non_finite();
    std::string when() const;
    RunReport base_report() const;

    const Problem& problem_;
    const Ranks* ranks_;
    RunOptions options_;
    SphParams params_{};
    CellGrid grid_{};
    Instruments instruments_;
    InstrumentPlan instrument_plan_;
    BodyTable bodies_;                   // the moving bodies' laws, as the devices have them
    FloatingBodies floating_;            // the floating ones' states (none: no floating body)
    std::vector<DampingZone> damping_;   // where the water is damped (none: empty)
    std::unique_ptr<BodyLog> body_log_;  // bodies.csv, where there are bodies and output
    // Whether the devices' particles are sorted into cells, which the devices' instruments read:
    // not before the first rebuild (start_measuring).
    bool devices_sorted_ = false;
    RankSpan span_;  // where the devices are: here, or spread over the ranks
    std::vector<std::string> descriptions_;  // every device's, for the report
    std::unique_ptr<DeviceGroup> group_;
    std::unique_ptr<LoadBalancer> balancer_;       // with balancing on
    std::unique_ptr<LoadBalanceLog> balance_log_;  // opened by run()
    bool balancing_ = false;
    // --trace: made by run(), open for iterations [trace_first, trace_end).
    std::unique_ptr<Trace> trace_;
    TraceTrack main_track_;  // the main thread's track while the window is open
    long trace_began_ = -1;  // the window's first iteration once open
    std::string trace_written_;
    double balance_seconds_ = 0.0;
    BalanceCounts balance_counts_;
    std::uint64_t removed_ = 0;         // particles that left the domain
    double particle_iterations_ = 0.0;  // sum over iterations of the particles then
    std::ostream* log_ = nullptr;       // run()'s log, for warnings
    static constexpr int kRemovalWarnings = 20;
    int removal_warnings_ = 0;
    static constexpr int kListGrowthNotes = 5;
    int list_growth_notes_ = 0;
    std::string backend_, backend_note_;
    std::size_t setup_count_ = 0;  // as the problem lays them out (a branch may add or remove)
    std::size_t particle_count_ = 0, fluid_count_ = 0;
    double setup_seconds_ = 0.0;
    double time_ = 0.0;
    long iteration_ = 0;
    float next_dt_limit_;  // dt bound from the last corrector's forces
    // Iterations since the last rebuild (k before the first, and on resuming from a checkpoint,
    // which is always taken where the next iteration rebuilds); rebuilds, and those before k.
    int since_rebuild_ = 0;
    long rebuilds_ = 0, early_rebuilds_ = 0;
    std::uint32_t largest_neighbours_ = 0;
    ListMargin list_margin_{0.0, 0.0, 0.0, 0.0};  // set up with the run's parameters
    // Checkpoints and restarts.
    std::optional<RunState> saved_;     // the checkpoint this run goes on from, until run()
    std::string restart_notes_;         // what reading it said, printed by run()
    int restarts_ = 0;                  // restarts that led to this run
    double loop_seconds_before_ = 0.0;  // the time loops of the runs before
    double next_checkpoint_ = 0.0;      // simulated time the next checkpoint is due
    SteadyClock::time_point last_checkpoint_wall_;  // when the last was written (or the loop began)
    std::size_t next_decision_ = 0;                 // --branches: the next decision time to reach
    std::unique_ptr<CheckpointFolder> checkpoints_;  // made by the first checkpoint
    // With periodic checkpoints: the state at the last rebuild from which the run may reach
    // --t-end before the next, written as the end checkpoint once it has.
    std::unique_ptr<RunState> end_candidate_;
    std::shared_ptr<const RunState> decision_state_;  // keep_decision_in_memory
};

}  // namespace sph
