// What a run writes as simulated time passes: particle frames every --output-every and a row of
// gauges.csv every --gauge-every, each at t = 0, whenever due, and at the end (with
// --gauge-average the instruments are read at every iteration and a row holds their means over
// its interval: instruments/interval_average.h); with --gauge-filter, gauges_filtered.csv (the
// whole series low-passed, instruments/low_pass.h; with --gauge-average the readings at every
// iteration, filtered as they come, instruments/streaming_low_pass.h, and gauges_peaks.csv, each
// column's largest and smallest filtered value over every iteration) once the last row is in, so
// that a run that stops early leaves no filtered file that looks whole.
#pragma once

#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/run_state.h"
#include "common/background_task.h"
#include "common/trace.h"
#include "driver/output_series.h"
#include "driver/run_options.h"
#include "gauge_csv.h"
#include "instruments.h"
#include "instruments/gauges.h"
#include "instruments/interval_average.h"
#include "instruments/streaming_low_pass.h"
#include "multi_device/device_group.h"
#include "sph_params.h"

namespace sph {

// How the outputs read the instruments: `start` queues a measurement on the devices, `finish`
// waits for it and returns its readings, which are of the particles as they were when it
// started, however many steps were queued since (DeviceGroup::start_measuring).
struct InstrumentReader {
    std::function<void()> start;
    std::function<InstrumentReadings()> finish;
};

class RunOutputs {
public:
    // Opens what the options ask for (frames, gauges) for `problem_name`'s run. `instruments`
    // are the run's (run_setup.h: run_instruments).
    RunOutputs(const RunOptions& options, const std::string& problem_name,
               const Instruments& instruments);
    // A rank other than 0 of a simulation across ranks: writes its devices' pieces of each frame
    // and takes part in gathering the instruments whenever output is due; lists nothing.
    static std::unique_ptr<RunOutputs> follower(const RunOptions& options,
                                                const Instruments& instruments,
                                                const OutputPositions* resume);
    // Continues the outputs of an earlier run from `resume` (restart number `restart`): the
    // frames and rows it had written at its checkpoint, what was due next. Throws OptionError
    // when the instruments' columns are not the earlier run's.
    RunOutputs(const RunOptions& options, const std::string& problem_name,
               const Instruments& instruments, const OutputPositions& resume, int restart);

    // Gauge rows are read with `reader` (before the first write_due); `in_background`: a thread
    // of the outputs' own waits for each measurement and writes its row, which the reader must
    // allow (not across ranks, where reading is a collective of the main threads), and another
    // writes each frame from a copy of the particles (across ranks every rank writes its pieces
    // at once: rank 0 lists the frame only when all are there).
    void read_instruments_with(InstrumentReader reader, bool in_background);
    // Writes what is due at simulated `time` (all of it when `last`): frames of the particles
    // read from `group`, gauge rows of what the reader reads on the devices. A row's measurement
    // is started when it is due and its row written in the background or at the next write_due
    // or settle(), so that the devices go on with the next step meanwhile; the last row is
    // written at once. So is a frame in the background (read_instruments_with), written by the
    // next write_due or settle(), and the last frame at once. The wall time spent on the main
    // thread goes to `seconds`, and to `track` while a trace is open. A row or a frame that
    // failed in the background throws here or at settle(); a failed frame is then due again.
    void write_due(double time, bool last, DeviceGroup& group, const SphParams& params,
                   const TraceTrack& track, double& seconds);
    // Writes the row of a measurement under way, if any (across ranks a collective), and waits
    // for the frame being written, if any.
    void settle(const TraceTrack& track = TraceTrack{});
    // Frames written, or being written.
    int frames() const { return frame_count_; }
    // Where the series stand now, for a checkpoint (settled: no measurement under way).
    OutputPositions positions() const;

private:
    RunOutputs(const RunOptions& options, const Instruments& instruments)
        : options_(options), instruments_(instruments) {}
    // Across ranks: each rank writes its devices' pieces, then rank 0 lists the frame.
    void write_frame_across_ranks(double time, DeviceGroup& group, const SphParams& params);
    const RunOptions& options_;
    Instruments instruments_;
    std::unique_ptr<OutputSeries> frames_;
    std::unique_ptr<GaugeCsv> gauges_;
    double next_frame_ = 0.0, next_gauge_ = 0.0;
    InstrumentReader reader_;
    // The measurement under way: its time, and whether it makes a row (with --gauge-average
    // the others are only added to the interval's means); while the background writes its
    // row, the background's alone, as `average_` is.
    struct Measurement {
        double time;
        bool row;
    };
    std::optional<Measurement> measuring_;
    // --gauge-average: the means of the interval under way, and the time of the last reading
    // (a restart's first call reads the same state again: not measured twice).
    IntervalAverage average_;
    double last_read_ = std::numeric_limits<double>::quiet_NaN();
    // --gauge-average with --gauge-filter: the filter of the readings, at the rows' times (none
    // on a follower, or where a resumed run's rows were filtered afterwards: then so are these).
    std::optional<StreamingLowPass> filter_;
    // The rows so far, kept for the filter and for checkpoints.
    std::vector<double> times_;
    std::vector<std::vector<double>> rows_;

    std::string filtered_path() const;
    // gauges_peaks.csv (with the readings' filter): a line per column, its filtered peaks.
    std::string peaks_path() const;
    std::string peaks_text(const FilteredPeaks& peaks) const;
    void write_filtered() const;
    // Takes up --gauge-average's interval where `resume` left it.
    void resume_average(const OutputPositions& resume);
    // Starts the readings' filter, or takes it up where `resume` (if any) left it.
    void start_filter(const OutputPositions* resume);
    // Writes the row of the measurement under way, if any.
    void write_measured_row(const TraceTrack& track);
    // Writes the row of a measurement under way, if any.
    void settle_row(const TraceTrack& track);
    // Waits for the frame being written in the background, if any; if it failed, makes it due
    // again and rethrows its failure.
    void wait_for_frame();
    // Frames written or handed to frame_writer_, and the time that one was due (for its retry).
    int frame_count_ = 0;
    double frame_due_ = 0.0;
    // Writes frames in the background (read_instruments_with), from copies of the particles:
    // after frames_, so that it stops before the series it writes goes.
    std::unique_ptr<BackgroundTask> frame_writer_;
    // Writes rows in the background (read_instruments_with); last, so that it stops first.
    std::unique_ptr<BackgroundTask> writer_;
};

}  // namespace sph
