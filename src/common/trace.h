// A timeline of a window of iterations, written as Chrome trace-event JSON (opens in Perfetto or
// chrome://tracing): one process per device with one track per stream or thread, plus the run's
// main thread. Devices add their kernels and copies; DeviceGroup and Simulation add host work
// through TracedRegion (and TimedRegion, which also adds up its time), which also opens an NVTX
// range on CUDA builds so that Nsight Systems shows the same regions.
#pragma once

#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "common/clock.h"

namespace sph {

class Trace {
public:
    // Times are seconds since the trace was made.
    Trace() : origin_(SteadyClock::now()) {}

    double now() const { return seconds_since(origin_); }

    // Names process `process` (shown as a group of tracks); thread-safe.
    void name_process(int process, const std::string& name);
    // The track of `process` called `name`, made on first use; thread-safe.
    int track(int process, const std::string& name);
    // One complete event; thread-safe.
    void add(int process, int track, const char* name, const char* category, double start,
             double duration);

    // Writes the trace atomically (a temporary file, then renamed); throws naming the path.
    void write(const std::string& path, long first_iteration, long end_iteration) const;

    // Another process's trace (an MPI rank's) as bytes, and taken into this one: its processes,
    // tracks and events, its times moved onto this trace's clock (the steady clock, which the
    // processes of one host share; across hosts the timelines are as far apart as the clocks).
    std::string serialized() const;
    void take_in(const std::string& serialized);

private:
    struct Event {
        int process, track;
        const char* name;  // string literals only: events are many, names few
        const char* category;
        double start, duration;
    };
    struct Track {
        int process, id;
        std::string name;
    };
    SteadyClock::time_point origin_;
    mutable std::mutex mutex_;
    std::deque<std::string> taken_names_;  // names of events taken in (Event points into them)
    std::vector<Event> events_;
    std::vector<Track> tracks_;
    std::vector<std::pair<int, std::string>> processes_;
};

// Where one thread's host work goes: a track of a trace, or nowhere (trace == nullptr).
struct TraceTrack {
    Trace* trace = nullptr;
    int process = 0, track = 0;
};

// Marks a region of host work for the life of the object: an NVTX range on CUDA builds (always,
// at the cost of a function call when no profiler listens) and, while a trace window is open, a
// trace event. `name` and `category` must be string literals.
class TracedRegion {
public:
    TracedRegion(const TraceTrack& track, const char* name, const char* category);
    ~TracedRegion();
    TracedRegion(const TracedRegion&) = delete;
    TracedRegion& operator=(const TracedRegion&) = delete;

private:
    TraceTrack track_;
    const char* name_;
    const char* category_;
    double start_ = 0.0;
};

// A TracedRegion whose wall time is also added to `total` when it ends.
class TimedRegion {
public:
    TimedRegion(double& total, const TraceTrack& track, const char* name, const char* category)
        : total_(total), region_(track, name, category), start_(SteadyClock::now()) {}
    ~TimedRegion() { total_ += seconds_since(start_); }
    TimedRegion(const TimedRegion&) = delete;
    TimedRegion& operator=(const TimedRegion&) = delete;

private:
    double& total_;
    TracedRegion region_;
    SteadyClock::time_point start_;
};

}  // namespace sph
