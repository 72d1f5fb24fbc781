// Times kernels on a CUDA stream with event pairs, without synchronising at each launch.
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "common/trace.h"
#include "devices/device.h"

namespace sph {

// Places a GPU's events on a trace's clock: `origin` was recorded, and waited for, at trace
// time `origin_seconds` (off by the few microseconds of that wait).
struct GpuTraceClock {
    Trace* trace = nullptr;
    int process = 0;
    cudaEvent_t origin = nullptr;
    double origin_seconds = 0.0;

    // Trace time of a completed event.
    double at(cudaEvent_t event) const;
    // Adds the interval between two completed events.
    void add(int track, const char* name, const char* category, cudaEvent_t start,
             cudaEvent_t stop) const;
};

class KernelEventTimer {
public:
    using Field = double KernelTimes::*;  // which total an interval adds to (nullptr: none)

    KernelEventTimer() = default;
    ~KernelEventTimer();
    KernelEventTimer(const KernelEventTimer&) = delete;
    KernelEventTimer& operator=(const KernelEventTimer&) = delete;

    void begin(cudaStream_t stream);
    // Closes the interval opened by the last begin(); its time will be added to `field` (unless
    // it is null), and, while `clock` traces, the interval to the trace as `name` on `track`.
    void end(cudaStream_t stream, Field field, const char* name);
    // Waits for every recorded interval and adds its time to `totals`.
    void collect(KernelTimes& totals);
    // The same for the intervals that have finished, in the order they were recorded, without
    // waiting: the rest stay for a later call.
    void collect_finished(KernelTimes& totals);
    // Intervals ended from now on are traced on `track` of `clock` (or not, when its trace is
    // null); the clock must outlive them.
    void trace_into(const GpuTraceClock* clock, int track) {
        clock_ = clock;
        track_ = track;
    }

private:
    struct Interval {
        cudaEvent_t start, stop;
        Field field;
        const char* name;  // nullptr: not traced
    };
    cudaEvent_t take_event();

    std::vector<cudaEvent_t> free_;
    std::vector<Interval> pending_;
    cudaEvent_t open_ = nullptr;
    const GpuTraceClock* clock_ = nullptr;
    int track_ = 0;
};

}  // namespace sph
