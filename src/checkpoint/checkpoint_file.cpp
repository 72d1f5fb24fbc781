#include "checkpoint/checkpoint_file.h"

#include <algorithm>
#include <cmath>

#include "byte_codec.h"
#include "checkpoint/build_id.h"
#include "sectioned_file.h"

namespace sph {

const std::string& build_id() {
    static const std::string id = kBuildId;
    return id;
}

std::vector<std::string> differing_settings(const std::vector<Setting>& saved,
                                            const std::vector<Setting>& now) {
    std::vector<std::string> differing;
    auto find = [](const std::vector<Setting>& in, const std::string& name) -> const std::string* {
        for (const auto& [key, value] : in) {
            if (key == name) return &value;
        }
        return nullptr;
    };
    // A switch is recorded only where it is on (driver/restart.cpp: physics_settings), so its
    // absence is off; any other setting absent on one side was not set there.
    auto absent = [](const std::string& there) { return there == "on" ? "off" : "not set"; };
    for (const auto& [name, value] : saved) {
        const std::string* current = find(now, name);
        if (current == nullptr) {
            differing.push_back(name + " (checkpoint: " + value + ", now: " + absent(value) + ")");
        } else if (*current != value) {
            differing.push_back(name + " (checkpoint: " + value + ", now: " + *current + ")");
        }
    }
    for (const auto& [name, value] : now) {
        if (find(saved, name) == nullptr) {
            differing.push_back(name + " (checkpoint: " + absent(value) + ", now: " + value + ")");
        }
    }
    return differing;
}

namespace {

std::string encode_meta(const RunState& s) {
    ByteWriter out;
    out.put_string(s.problem);
    out.put_string(s.build_id);
    out.put(std::uint64_t(s.physics.size()));
    for (const auto& [name, value] : s.physics) {
        out.put_string(name);
        out.put_string(value);
    }
    out.put(s.time);
    out.put(std::int64_t(s.iteration));
    out.put(s.next_dt_limit);
    out.put(s.removed);
    out.put(s.particle_iterations);
    out.put(s.largest_neighbours);
    out.put(s.loop_seconds);
    out.put(std::int32_t(s.restarts));
    return std::move(out.bytes());
}

void decode_meta(const std::string& bytes, const std::string& name, RunState& s) {
    ByteReader in(bytes, name + ", section META");
    s.problem = in.take_string("the problem's name");
    s.build_id = in.take_string("the build id");
    const std::size_t settings = in.take_count(16, "the settings");
    for (std::size_t k = 0; k < settings; ++k) {
        std::string key = in.take_string("a setting's name");
        s.physics.emplace_back(std::move(key), in.take_string("a setting's value"));
    }
    s.time = in.take<double>("the time");
    s.iteration = long(in.take<std::int64_t>("the iteration"));
    s.next_dt_limit = in.take<float>("the dt limit");
    s.removed = in.take<std::uint64_t>("the removed count");
    s.particle_iterations = in.take<double>("the particle iterations");
    s.largest_neighbours = in.take<std::uint32_t>("the largest neighbour count");
    s.loop_seconds = in.take<double>("the loop seconds");
    s.restarts = in.take<std::int32_t>("the restart count");
    if (!(std::isfinite(s.time) && s.time >= 0.0) || s.iteration < 0 || s.restarts < 0 ||
        !(s.next_dt_limit > 0.0f) || !(s.loop_seconds >= 0.0)) {
        in.fail("impossible values (time, iteration, dt limit or counters)");
    }
}

std::string encode_particles(const HostParticles& p) {
    ByteWriter out;
    out.put(std::uint64_t(p.size()));
    for_each_field([&](auto, const auto& values) { out.put_vector(values); }, p);
    return std::move(out.bytes());
}

void decode_particles(const std::string& bytes, const std::string& name, HostParticles& p) {
    ByteReader in(bytes, name + ", section PART");
    const auto count = in.take<std::uint64_t>("the particle count");
    for_each_field(
        [&](auto field, auto& values) {
            using T = typename decltype(field)::type;
            values = in.take_vector<T>(field.name);
            if (values.size() != count) {
                in.fail(std::string("field ") + field.name + " holds " +
                        std::to_string(values.size()) + " values for " + std::to_string(count) +
                        " particles");
            }
        },
        p);
    if (in.left() != 0) in.fail("bytes left after the last field");
}

std::string encode_slices(const RunState& s) {
    ByteWriter out;
    out.put_vector(s.first_slices);
    out.put(std::int32_t(s.slice_count));
    out.put(std::int32_t(s.halo));
    return std::move(out.bytes());
}

void decode_slices(const std::string& bytes, const std::string& name, RunState& s) {
    ByteReader in(bytes, name + ", section SLCE");
    s.first_slices = in.take_vector<int>("the first slices");
    s.slice_count = in.take<std::int32_t>("the slice count");
    s.halo = in.take<std::int32_t>("the halo");
    bool valid = !s.first_slices.empty() && s.first_slices[0] == 0 && s.halo >= 1 &&
                 s.first_slices.back() < s.slice_count;
    for (std::size_t d = 1; valid && d < s.first_slices.size(); ++d) {
        valid = s.first_slices[d] > s.first_slices[d - 1];
    }
    if (!valid) in.fail("the slice map is not a split of the slices among the devices");
}

template <class T>
void put_rows(ByteWriter& out, const std::deque<std::vector<T>>& rows) {
    out.put(std::uint64_t(rows.size()));
    for (const auto& row : rows) out.put_vector(row);
}

template <class T>
std::deque<std::vector<T>> take_rows(ByteReader& in, const char* item) {
    std::deque<std::vector<T>> rows(in.take_count(8, item));
    for (auto& row : rows) row = in.take_vector<T>(item);
    return rows;
}

std::string encode_balancer(const LoadBalancer::State& b) {
    ByteWriter out;
    put_rows(out, b.seconds);
    put_rows(out, b.slices);
    out.put_vector(b.open_seconds);
    out.put_vector(b.open_slices);
    return std::move(out.bytes());
}

LoadBalancer::State decode_balancer(const std::string& bytes, const std::string& name) {
    ByteReader in(bytes, name + ", section BLNC");
    LoadBalancer::State b;
    b.seconds = take_rows<double>(in, "the balancer's seconds");
    b.slices = take_rows<int>(in, "the balancer's slices");
    b.open_seconds = in.take_vector<double>("the balancer's open seconds");
    b.open_slices = in.take_vector<int>("the balancer's open slices");
    return b;
}

std::string encode_outputs(const OutputPositions& o) {
    ByteWriter out;
    out.put(std::uint64_t(o.frames.size()));
    for (const auto& [time, file] : o.frames) {
        out.put(time);
        out.put_string(file);
    }
    out.put(o.next_frame);
    out.put(o.next_gauge);
    out.put(std::uint64_t(o.gauge_columns.size()));
    for (const std::string& c : o.gauge_columns) out.put_string(c);
    out.put_vector(o.gauge_times);
    for (const auto& row : o.gauge_rows) out.put_vector(row);
    return std::move(out.bytes());
}

OutputPositions decode_outputs(const std::string& bytes, const std::string& name) {
    ByteReader in(bytes, name + ", section OUTP");
    OutputPositions o;
    o.frames.resize(in.take_count(16, "the frames"));
    for (auto& [time, file] : o.frames) {
        time = in.take<double>("a frame's time");
        file = in.take_string("a frame's file");
    }
    o.next_frame = in.take<double>("the next frame's time");
    o.next_gauge = in.take<double>("the next gauge row's time");
    o.gauge_columns.resize(in.take_count(8, "the gauge columns"));
    for (std::string& c : o.gauge_columns) c = in.take_string("a gauge column");
    o.gauge_times = in.take_vector<double>("the gauge rows' times");
    o.gauge_rows.resize(o.gauge_times.size());
    for (auto& row : o.gauge_rows) {
        row = in.take_vector<double>("a gauge row");
        if (row.size() != o.gauge_columns.size())
            in.fail("a gauge row's width is not the columns'");
    }
    return o;
}

// --gauge-average's interval under way (instruments/interval_average.h), when the run averages.
std::string encode_gauge_average(const IntervalAverage::State& a) {
    ByteWriter out;
    out.put(a.last_time);
    out.put_vector(a.last);
    out.put_vector(a.sums);
    out.put_vector(a.spans);
    return std::move(out.bytes());
}

IntervalAverage::State decode_gauge_average(const std::string& bytes, const std::string& name) {
    ByteReader in(bytes, name + ", section GAVG");
    IntervalAverage::State a;
    a.last_time = in.take<double>("the last reading's time");
    a.last = in.take_vector<double>("the last reading");
    a.sums = in.take_vector<double>("the interval's sums");
    a.spans = in.take_vector<double>("the interval's spans");
    if (std::isnan(a.last_time) || a.sums.size() != a.last.size() ||
        a.spans.size() != a.last.size())
        in.fail("an interval that does not match its reading");
    return a;
}

// --gauge-average with --gauge-filter: the readings' filter (instruments/streaming_low_pass.h).
std::string encode_gauge_filter(const StreamingLowPass::State& f) {
    ByteWriter out;
    out.put(f.cutoff_hz);
    out.put_vector(f.times);
    for (const auto& reading : f.readings) out.put_vector(reading);
    out.put_vector(f.pending);
    out.put(std::uint64_t(f.filtered.size()));
    for (const auto& row : f.filtered) out.put_vector(row);
    out.put(f.last_row);
    out.put(f.peaks_to);
    for (const auto* v :
         {&f.peaks.largest, &f.peaks.largest_time, &f.peaks.smallest, &f.peaks.smallest_time})
        out.put_vector(*v);
    return std::move(out.bytes());
}

StreamingLowPass::State decode_gauge_filter(const std::string& bytes, const std::string& name,
                                            const OutputPositions& outputs) {
    ByteReader in(bytes, name + ", section GFLT");
    StreamingLowPass::State f;
    f.cutoff_hz = in.take<double>("the filter's cut-off");
    f.times = in.take_vector<double>("the filter's reading times");
    f.readings.resize(f.times.size());
    for (auto& reading : f.readings) reading = in.take_vector<double>("a filter's reading");
    f.pending = in.take_vector<double>("the rows still to filter");
    f.filtered.resize(in.take_count(8, "the filtered rows"));
    for (auto& row : f.filtered) row = in.take_vector<double>("a filtered row");
    f.last_row = in.take<double>("the last row's time");
    f.peaks_to = in.take<double>("the peaks' last reading");
    for (auto* v :
         {&f.peaks.largest, &f.peaks.largest_time, &f.peaks.smallest, &f.peaks.smallest_time})
        *v = in.take_vector<double>("the filtered peaks");
    const std::size_t columns = outputs.gauge_columns.size();
    const auto narrow = [&](const std::vector<std::vector<double>>& rows) {
        return std::any_of(rows.begin(), rows.end(),
                           [&](const std::vector<double>& r) { return r.size() != columns; });
    };
    const FilteredPeaks& p = f.peaks;
    const bool peaks_fit = (p.largest.empty() || p.largest.size() == columns) &&
                           p.largest_time.size() == p.largest.size() &&
                           p.smallest.size() == p.largest.size() &&
                           p.smallest_time.size() == p.largest.size();
    if (!(f.cutoff_hz > 0.0) || narrow(f.readings) || narrow(f.filtered) || !peaks_fit)
        in.fail("a filter that does not match gauges.csv's columns");
    if (f.filtered.size() + f.pending.size() != outputs.gauge_times.size())
        in.fail("a filter with not as many rows as gauges.csv");
    return f;
}

// The end checkpoint's --t-end reached (RunState::end_reached).
std::string encode_end(double end_reached) {
    ByteWriter out;
    out.put(end_reached);
    return std::move(out.bytes());
}

double decode_end(const std::string& bytes, const std::string& name, double time) {
    ByteReader in(bytes, name + ", section ENDT");
    const double end_reached = in.take<double>("the end reached");
    if (!(std::isfinite(end_reached) && end_reached >= time))
        in.fail("an end reached that is not finite or lies before the checkpoint's time");
    return end_reached;
}

// The floating bodies' masses and states (RunState::floating): finite doubles.
std::string encode_floating(const std::vector<double>& floating) {
    ByteWriter out;
    out.put_vector(floating);
    return std::move(out.bytes());
}

std::vector<double> decode_floating(const std::string& bytes, const std::string& name) {
    ByteReader in(bytes, name + ", section FLOT");
    std::vector<double> v = in.take_vector<double>("the floating bodies");
    for (double x : v) {
        if (!std::isfinite(x)) in.fail("a floating body's state that is not finite");
    }
    return v;
}

}  // namespace

void write_checkpoint(const std::string& path, const RunState& state) {
    SectionedFile file;
    file.kind = kCheckpointKind;
    file.version = kCheckpointVersion;
    file.sections = {{"META", encode_meta(state)},
                     {"PART", encode_particles(state.particles)},
                     {"SLCE", encode_slices(state)},
                     {"OUTP", encode_outputs(state.outputs)}};
    if (state.balancer) file.sections.push_back({"BLNC", encode_balancer(*state.balancer)});
    if (!std::isnan(state.outputs.gauge_average.last_time))
        file.sections.push_back({"GAVG", encode_gauge_average(state.outputs.gauge_average)});
    if (state.outputs.gauge_filter)
        file.sections.push_back({"GFLT", encode_gauge_filter(*state.outputs.gauge_filter)});
    if (state.end_reached) file.sections.push_back({"ENDT", encode_end(*state.end_reached)});
    if (!state.floating.empty()) file.sections.push_back({"FLOT", encode_floating(state.floating)});
    write_sectioned_file(path, file);
}

RunState parse_checkpoint(const std::string& bytes, const std::string& name) {
    const SectionedFile file = parse_sectioned_file(bytes, name);
    if (file.kind != kCheckpointKind)
        throw CorruptFile(name + ": not a checkpoint (another kind of file)");
    if (file.version != kCheckpointVersion) {
        throw CorruptFile(name + ": checkpoint format version " + std::to_string(file.version) +
                          "; this build reads version " + std::to_string(kCheckpointVersion));
    }
    auto section = [&](const char* tag) -> const std::string& {
        try {
            return file.section(tag);
        } catch (const CorruptFile& e) {
            throw CorruptFile(name + ": " + e.what());
        }
    };
    RunState s;
    decode_meta(section("META"), name, s);
    decode_particles(section("PART"), name, s.particles);
    decode_slices(section("SLCE"), name, s);
    s.outputs = decode_outputs(section("OUTP"), name);
    auto has = [&](const char* tag) {  // the sections a run writes only where they apply
        return std::any_of(file.sections.begin(), file.sections.end(),
                           [&](const Section& x) { return x.tag == tag; });
    };
    if (has("BLNC")) s.balancer = decode_balancer(section("BLNC"), name);
    if (has("GAVG")) {
        s.outputs.gauge_average = decode_gauge_average(section("GAVG"), name);
        if (s.outputs.gauge_average.last.size() != s.outputs.gauge_columns.size())
            throw CorruptFile(name + ", section GAVG: not as many columns as gauges.csv's");
    }
    if (has("GFLT")) s.outputs.gauge_filter = decode_gauge_filter(section("GFLT"), name, s.outputs);
    if (has("ENDT")) s.end_reached = decode_end(section("ENDT"), name, s.time);
    if (has("FLOT")) s.floating = decode_floating(section("FLOT"), name);
    return s;
}

RunState read_checkpoint(const std::string& path) {
    return parse_checkpoint(read_file_bytes(path), path);
}

}  // namespace sph
