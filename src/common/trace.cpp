#include "common/trace.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#ifdef SPH_HAVE_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

#include "atomic_file.h"
#include "byte_codec.h"

namespace sph {

void Trace::name_process(int process, const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& p : processes_) {
        if (p.first == process) {
            p.second = name;
            return;
        }
    }
    processes_.emplace_back(process, name);
}

int Trace::track(int process, const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    int next = 0;
    for (const Track& t : tracks_) {
        if (t.process != process) continue;
        if (t.name == name) return t.id;
        next = std::max(next, t.id + 1);
    }
    tracks_.push_back(Track{process, next, name});
    return next;
}

void Trace::add(int process, int track, const char* name, const char* category, double start,
                double duration) {
    std::lock_guard<std::mutex> lock(mutex_);
    events_.push_back(Event{process, track, name, category, start, duration});
}

void Trace::write(const std::string& path, long first_iteration, long end_iteration) const {
    using nlohmann::json;
    std::lock_guard<std::mutex> lock(mutex_);
    json events = json::array();
    for (const auto& [process, name] : processes_) {
        events.push_back({{"ph", "M"},
                          {"name", "process_name"},
                          {"pid", process},
                          {"tid", 0},
                          {"args", {{"name", name}}}});
        events.push_back({{"ph", "M"},
                          {"name", "process_sort_index"},
                          {"pid", process},
                          {"tid", 0},
                          {"args", {{"sort_index", process}}}});
    }
    for (const Track& t : tracks_) {
        events.push_back({{"ph", "M"},
                          {"name", "thread_name"},
                          {"pid", t.process},
                          {"tid", t.id},
                          {"args", {{"name", t.name}}}});
        events.push_back({{"ph", "M"},
                          {"name", "thread_sort_index"},
                          {"pid", t.process},
                          {"tid", t.id},
                          {"args", {{"sort_index", t.id}}}});
    }
    for (const Event& e : events_) {  // trace-event times are microseconds
        events.push_back({{"ph", "X"},
                          {"name", e.name},
                          {"cat", e.category},
                          {"pid", e.process},
                          {"tid", e.track},
                          {"ts", 1e6 * e.start},
                          {"dur", 1e6 * e.duration}});
    }
    const json trace = {{"traceEvents", std::move(events)},
                        {"displayTimeUnit", "ms"},
                        {"otherData",
                         {{"first_iteration", first_iteration},
                          {"end_iteration", end_iteration},
                          {"time_unit", "microseconds since the trace began"}}}};
    write_text_file_atomically(path, trace.dump(1) + "\n");
}

std::string Trace::serialized() const {
    std::lock_guard<std::mutex> lock(mutex_);
    ByteWriter out;
    out.put(std::int64_t(origin_.time_since_epoch().count()));
    out.put(std::uint64_t(processes_.size()));
    for (const auto& [process, name] : processes_) {
        out.put(process);
        out.put_string(name);
    }
    out.put(std::uint64_t(tracks_.size()));
    for (const Track& t : tracks_) {
        out.put(t.process);
        out.put(t.id);
        out.put_string(t.name);
    }
    out.put(std::uint64_t(events_.size()));
    for (const Event& e : events_) {
        out.put(e.process);
        out.put(e.track);
        out.put_string(e.name);
        out.put_string(e.category);
        out.put(e.start);
        out.put(e.duration);
    }
    return std::move(out.bytes());
}

void Trace::take_in(const std::string& serialized) {
    ByteReader in(serialized, "a rank's trace");
    const SteadyClock::duration their_origin(in.take<std::int64_t>("origin"));
    const double shift =
        std::chrono::duration<double>(SteadyClock::time_point(their_origin) - origin_).count();
    const auto processes = in.take<std::uint64_t>("processes");
    for (std::uint64_t k = 0; k < processes; ++k) {
        const int process = in.take<int>("process");
        name_process(process, in.take_string("process name"));
    }
    const auto tracks = in.take<std::uint64_t>("tracks");
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::uint64_t k = 0; k < tracks; ++k) {
        Track t;
        t.process = in.take<int>("track process");
        t.id = in.take<int>("track id");
        t.name = in.take_string("track name");
        tracks_.push_back(t);
    }
    // Event names are few: each kept once.
    auto interned = [&](std::string name) {
        for (const std::string& kept : taken_names_) {
            if (kept == name) return kept.c_str();
        }
        taken_names_.push_back(std::move(name));
        return taken_names_.back().c_str();
    };
    const auto events = in.take<std::uint64_t>("events");
    for (std::uint64_t k = 0; k < events; ++k) {
        Event e;
        e.process = in.take<int>("event process");
        e.track = in.take<int>("event track");
        e.name = interned(in.take_string("event name"));
        e.category = interned(in.take_string("event category"));
        e.start = in.take<double>("event start") + shift;
        e.duration = in.take<double>("event duration");
        events_.push_back(e);
    }
}

TracedRegion::TracedRegion(const TraceTrack& track, const char* name, const char* category)
    : track_(track), name_(name), category_(category) {
#ifdef SPH_HAVE_NVTX
    nvtxRangePushA(name);
#endif
    if (track_.trace != nullptr) start_ = track_.trace->now();
}

TracedRegion::~TracedRegion() {
    if (track_.trace != nullptr) {
        try {
            track_.trace->add(track_.process, track_.track, name_, category_, start_,
                              track_.trace->now() - start_);
        } catch (...) {
            // Out of memory for one more event: the trace misses it, the run goes on.
        }
    }
#ifdef SPH_HAVE_NVTX
    nvtxRangePop();
#endif
}

}  // namespace sph
