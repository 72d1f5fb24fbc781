#include "driver/run_outputs.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "atomic_file.h"
#include "instruments/gauges.h"
#include "instruments/low_pass.h"

namespace sph {

namespace {

// The first output time after `time` on the grid of multiples of `every`.
double next_after(double next, double time, double every) {
    while (next <= time * (1.0 + 1e-12)) next += every;
    return next;
}

// A branch's instruments are its parent's and some more: the rows before its decision point, in
// its columns, nan where an instrument was not there yet.
std::vector<std::vector<double>> with_added_columns(const std::vector<std::string>& before,
                                                    const std::vector<std::vector<double>>& rows,
                                                    const std::vector<std::string>& now) {
    std::vector<long> from(now.size(), -1);  // each column's place in `before`
    for (const std::string& column : before) {
        const auto at = std::find(now.begin(), now.end(), column);
        if (at == now.end()) {
            throw OptionError("--branches: the instrument '" + column +
                              "' of the run the branch goes on from is gone");
        }
        from[at - now.begin()] = long(&column - before.data());
    }
    std::vector<std::vector<double>> out;
    for (const std::vector<double>& row : rows) {
        std::vector<double> widened(now.size(), std::numeric_limits<double>::quiet_NaN());
        for (std::size_t c = 0; c < now.size(); ++c) {
            if (from[c] >= 0) widened[c] = row[std::size_t(from[c])];
        }
        out.push_back(std::move(widened));
    }
    return out;
}

}  // namespace

RunOutputs::RunOutputs(const RunOptions& options, const std::string& problem_name,
                       const Instruments& instruments)
    : options_(options), instruments_(instruments) {
    if (!options.write_output) return;
    if (!instruments_.empty()) {
        gauges_ = std::make_unique<GaugeCsv>(options.output_dir, instrument_columns(instruments_));
        // gauges.csv starts over: a filtered series of an earlier run must not pass for this one's.
        std::error_code ignored;
        std::filesystem::remove(filtered_path(), ignored);
        std::filesystem::remove(peaks_path(), ignored);
        start_filter(nullptr);
    }
    if (options.write_frames) {
        frames_ = std::make_unique<OutputSeries>(options.output_dir, problem_name);
    }
}

RunOutputs::RunOutputs(const RunOptions& options, const std::string& problem_name,
                       const Instruments& instruments, const OutputPositions& resume, int restart)
    : options_(options), instruments_(instruments) {
    next_frame_ = resume.next_frame;
    next_gauge_ = resume.next_gauge;
    if (!options.write_output) return;
    const std::string tag = "_before_restart" + std::to_string(restart);
    if (!instruments_.empty()) {
        const std::vector<std::string> columns = instrument_columns(instruments_);
        times_ = resume.gauge_times;
        rows_ = resume.gauge_rows;
        if (!resume.gauge_columns.empty() && columns != resume.gauge_columns) {
            if (!options.adds_instruments) {
                throw OptionError(
                    "--restart: the gauges, probes and sensors are not the checkpoint's "
                    "(gauges.csv could not go on); give the same instrument options");
            }
            rows_ = with_added_columns(resume.gauge_columns, rows_, columns);
        }
        resume_average(resume);  // the columns checked
        start_filter(&resume);
        std::error_code ignored;  // a filtered series of the earlier run is not this one's
        std::filesystem::remove(filtered_path(), ignored);
        std::filesystem::remove(peaks_path(), ignored);
        gauges_ = std::make_unique<GaugeCsv>(options.output_dir, columns, times_, rows_,
                                             "gauges" + tag + ".csv");
    }
    if (options.write_frames) {
        // Only frames that are there: a restart into another folder starts its series afresh.
        std::vector<std::pair<double, std::string>> there;
        for (const auto& frame : resume.frames) {
            std::error_code ignored;
            if (std::filesystem::exists(std::filesystem::path(options.output_dir) / frame.second,
                                        ignored)) {
                there.push_back(frame);
            }
        }
        frames_ = std::make_unique<OutputSeries>(options.output_dir, problem_name, there, restart);
        frame_count_ = frames_->frames();
    }
}

std::unique_ptr<RunOutputs> RunOutputs::follower(const RunOptions& options,
                                                 const Instruments& instruments,
                                                 const OutputPositions* resume) {
    std::unique_ptr<RunOutputs> outputs(new RunOutputs(options, instruments));
    if (resume != nullptr) {
        outputs->next_frame_ = resume->next_frame;
        outputs->next_gauge_ = resume->next_gauge;
        outputs->resume_average(*resume);
    }
    return outputs;
}

// Rank 0 names the frame; a piece that cannot be written on any rank fails the frame on every
// rank, naming the rank.
void RunOutputs::write_frame_across_ranks(double time, DeviceGroup& group,
                                          const SphParams& params) {
    std::vector<bool> here(std::size_t(group.size()));
    for (int d = 0; d < group.size(); ++d) here[std::size_t(d)] = group.local(d);
    const Ranks& ranks = *group.span().ranks();
    const std::string stem = ranks.broadcast(frames_ ? frames_->frame_stem() : std::string(), 0);
    std::vector<std::string> files;
    std::string error;
    try {
        files = OutputSeries::write_pieces(options_.output_dir, stem, group.download_here(), here,
                                           params);
    } catch (const std::exception& e) {
        error = e.what();
    }
    const std::vector<std::string> said = ranks.all_gather(error);
    for (std::size_t r = 0; r < said.size(); ++r) {
        if (!said[r].empty())
            throw std::runtime_error("rank " + std::to_string(r) + ": " + said[r]);
    }
    if (frames_) frames_->list_frame(time, files);
}

void RunOutputs::wait_for_frame() {
    if (!frame_writer_) return;
    try {
        frame_writer_->wait();
    } catch (...) {
        // Due again: a checkpoint taken now lists the frames written and this one as the next.
        next_frame_ = frame_due_;
        --frame_count_;
        throw;
    }
}

void RunOutputs::resume_average(const OutputPositions& resume) {
    if (!options_.gauge_average) return;
    IntervalAverage::State state = resume.gauge_average;
    if (std::isnan(state.last_time)) return;  // the run before did not average: start afresh
    const std::vector<std::string> columns = instrument_columns(instruments_);
    if (columns != resume.gauge_columns) {  // a branch's added instruments: no interval yet
        const std::vector<std::vector<double>> widened = with_added_columns(
            resume.gauge_columns, {state.last, state.sums, state.spans}, columns);
        state.last = widened[0];
        state.sums = widened[1];
        state.spans = widened[2];
        for (std::size_t c = 0; c < columns.size(); ++c) {
            if (std::isnan(state.sums[c])) state.sums[c] = state.spans[c] = 0.0;
        }
    }
    last_read_ = state.last_time;
    average_ = IntervalAverage(std::move(state));
}

void RunOutputs::start_filter(const OutputPositions* resume) {
    if (!options_.gauge_average || !(options_.gauge_filter_hz > 0.0)) return;
    StreamingLowPass::State state;
    if (resume != nullptr && !resume->gauge_times.empty()) {
        // Rows the run before filtered afterwards, or with another cut-off: so are these.
        if (!resume->gauge_filter || resume->gauge_filter->cutoff_hz != options_.gauge_filter_hz)
            return;
        state = *resume->gauge_filter;
        const std::vector<std::string> columns = instrument_columns(instruments_);
        if (columns != resume->gauge_columns) {  // a branch's added instruments: NaN before
            state.readings = with_added_columns(resume->gauge_columns, state.readings, columns);
            state.filtered = with_added_columns(resume->gauge_columns, state.filtered, columns);
            FilteredPeaks& peaks = state.peaks;
            if (!peaks.largest.empty()) {
                const std::vector<std::vector<double>> widened = with_added_columns(
                    resume->gauge_columns,
                    {peaks.largest, peaks.largest_time, peaks.smallest, peaks.smallest_time},
                    columns);
                peaks = FilteredPeaks{widened[0], widened[1], widened[2], widened[3]};
            }
        }
    }
    filter_.emplace(options_.gauge_filter_hz, std::move(state));
}

OutputPositions RunOutputs::positions() const {
    if (measuring_) throw std::logic_error("RunOutputs::positions: a row is still being read");
    OutputPositions p;
    if (frames_) p.frames = frames_->listed();
    p.next_frame = next_frame_;
    p.next_gauge = next_gauge_;
    if (gauges_) p.gauge_columns = instrument_columns(instruments_);
    p.gauge_times = times_;
    p.gauge_rows = rows_;
    if (options_.gauge_average) p.gauge_average = average_.state();
    if (filter_) p.gauge_filter = filter_->state();
    return p;
}

void RunOutputs::write_due(double time, bool last, DeviceGroup& group, const SphParams& params,
                           const TraceTrack& track, double& seconds) {
    // A follower (no series of its own) is due exactly when rank 0 is: frames are collective.
    const bool frames_wanted = options_.write_output && options_.write_frames;
    const bool gauges_wanted = options_.write_output && !instruments_.empty();
    const bool frame = frames_wanted && (time >= next_frame_ || last);
    const bool gauge = gauges_wanted && (time >= next_gauge_ || last);
    const bool read = gauge || (gauges_wanted && options_.gauge_average && time != last_read_);
    // A row the background writes needs no call; one it does not is written at the next one.
    if (!frame && !read && (writer_ || !measuring_)) return;
    TimedRegion region(seconds, track, "output", "output");
    settle_row(track);
    if (frame) {
        wait_for_frame();  // the frame before: written by now, or its failure thrown here
        const bool fail = frames_ && frame_count_ == options_.fault_output_frame;  // testing
        const int number = frame_count_;
        auto inject = [fail, number] {
            if (fail) {
                throw std::runtime_error("cannot write frame " + std::to_string(number) +
                                         ": injected output failure (testing)");
            }
        };
        if (group.span().spread()) {
            inject();
            write_frame_across_ranks(time, group, params);
        } else {
            // The particles are copied off the devices now; formatting, compressing and writing
            // them (most of a frame's cost) go on beside the next steps, except for the last.
            auto pieces = std::make_shared<const std::vector<HostParticles>>(group.download());
            auto write = [this, time, pieces, params, inject] {
                inject();
                frames_->write(time, *pieces, params);
            };
            if (frame_writer_ && !last) {
                frame_due_ = next_frame_;
                frame_writer_->run(write);
            } else {
                write();
            }
        }
        ++frame_count_;
        next_frame_ = next_after(next_frame_, time, options_.output_every);
    }
    if (read) {  // on the devices: no particle leaves them
        {
            TracedRegion measuring(track, "instruments", "output");
            reader_.start();
        }
        measuring_ = Measurement{time, gauge};
        last_read_ = time;
        if (gauge) next_gauge_ = next_after(next_gauge_, time, options_.gauge_every);
        if (last) {
            settle_row(track);
        } else if (writer_) {
            writer_->run([this] { write_measured_row(TraceTrack{}); });
        }
    }
    if (last && gauges_ && options_.gauge_filter_hz > 0.0) write_filtered();
}

void RunOutputs::read_instruments_with(InstrumentReader reader, bool in_background) {
    reader_ = std::move(reader);
    if (in_background && !writer_) writer_ = std::make_unique<BackgroundTask>();
    if (in_background && frames_ && !frame_writer_) {
        frame_writer_ = std::make_unique<BackgroundTask>();
    }
}

void RunOutputs::settle(const TraceTrack& track) {
    std::exception_ptr frame_failure;  // the row under way goes in all the same
    try {
        wait_for_frame();
    } catch (const std::exception&) {
        frame_failure = std::current_exception();
    }
    settle_row(track);
    if (frame_failure) std::rethrow_exception(frame_failure);
}

void RunOutputs::settle_row(const TraceTrack& track) {
    if (writer_) writer_->wait();
    write_measured_row(track);
}

void RunOutputs::write_measured_row(const TraceTrack& track) {
    if (!measuring_) return;
    const Measurement measured = *measuring_;
    const double time = measured.time;
    measuring_.reset();  // a row that fails to be read or written is not tried again
    std::vector<double> row;
    {
        TracedRegion reading(track, "instruments read", "output");
        row = instrument_row(instruments_, reader_.finish());
    }
    if (options_.gauge_average) {
        average_.add(time, row);
        if (filter_) {
            filter_->add(time, row);
            if (measured.row) filter_->mark_row();
        }
        if (!measured.row) return;
        row = average_.take_row();
    }
    TracedRegion writing(track, "gauges.csv", "output");
    if (gauges_) gauges_->append(time, row);
    times_.push_back(time);
    rows_.push_back(row);
}

std::string RunOutputs::peaks_path() const {
    return (std::filesystem::path(options_.output_dir) / "gauges_peaks.csv").string();
}

std::string RunOutputs::peaks_text(const FilteredPeaks& peaks) const {
    const std::vector<std::string> columns = instrument_columns(instruments_);
    std::ostringstream out;
    out.precision(9);
    out << "column,largest,time_of_largest,smallest,time_of_smallest\n";
    for (std::size_t c = 0; c < columns.size(); ++c) {
        const auto at = [&](const std::vector<double>& v) {
            return c < v.size() ? v[c] : std::numeric_limits<double>::quiet_NaN();
        };
        out << columns[c] << ',' << at(peaks.largest) << ',' << at(peaks.largest_time) << ','
            << at(peaks.smallest) << ',' << at(peaks.smallest_time) << '\n';
    }
    return out.str();
}

std::string RunOutputs::filtered_path() const {
    return (std::filesystem::path(options_.output_dir) / "gauges_filtered.csv").string();
}

void RunOutputs::write_filtered() const {
    std::vector<std::vector<double>> filtered;
    if (filter_) {
        filtered = filter_->rows();
        if (filtered.size() != rows_.size())
            throw std::logic_error("RunOutputs: the filter's rows are not gauges.csv's");
    } else {
        filtered.resize(rows_.size());
        const std::size_t columns = rows_.empty() ? 0 : rows_.front().size();
        for (std::size_t c = 0; c < columns; ++c) {
            std::vector<double> series(rows_.size());
            for (std::size_t r = 0; r < rows_.size(); ++r) series[r] = rows_[r][c];
            series = gaussian_low_pass(times_, series, options_.gauge_filter_hz);
            for (std::size_t r = 0; r < rows_.size(); ++r) filtered[r].push_back(series[r]);
        }
    }
    write_text_file_atomically(filtered_path(),
                               gauge_csv_text(instrument_columns(instruments_), times_, filtered));
    if (filter_) write_text_file_atomically(peaks_path(), peaks_text(filter_->peaks()));
}

}  // namespace sph
