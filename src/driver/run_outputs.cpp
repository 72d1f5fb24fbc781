#include "driver/run_outputs.h"

#include "instruments/gauges.h"

namespace sph {

namespace {

// The first output time after `time` on the grid of multiples of `every`.
double next_after(double next, double time, double every) {
    while (next <= time * (1.0 + 1e-12)) next += every;
    return next;
}

}  // namespace

RunOutputs::RunOutputs(const RunOptions& options, const std::string& problem_name,
                       const Instruments& instruments)
    : options_(options), instruments_(instruments) {
    if (!options.write_output) return;
    if (!instruments_.empty()) {
        gauges_ = std::make_unique<GaugeCsv>(options.output_dir, instrument_columns(instruments_));
    }
    if (options.write_frames) {
        frames_ = std::make_unique<OutputSeries>(options.output_dir, problem_name);
    }
}

void RunOutputs::write_due(double time, bool last, DeviceGroup& group, const SphParams& params,
                           const std::function<InstrumentReadings()>& measure,
                           const TraceTrack& track, double& seconds) {
    const bool frame = frames_ && (time >= next_frame_ || last);
    const bool gauge = gauges_ && (time >= next_gauge_ || last);
    if (!frame && !gauge) return;
    TimedRegion region(seconds, track, "output", "output");
    if (frame) {
        frames_->write(time, group.download(), params);
        next_frame_ = next_after(next_frame_, time, options_.output_every);
    }
    if (gauge) {  // on the devices: no particle leaves them
        const InstrumentReadings readings = measure();
        gauges_->append(time, instrument_row(instruments_, readings));
        next_gauge_ = next_after(next_gauge_, time, options_.gauge_every);
    }
}

}  // namespace sph
