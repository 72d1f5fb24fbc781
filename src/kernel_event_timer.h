// Times kernels on a CUDA stream with event pairs, without synchronising at each launch.
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "device.h"

namespace sph {

class KernelEventTimer {
public:
    using Field = double KernelTimes::*;  // which total an interval adds to

    KernelEventTimer() = default;
    ~KernelEventTimer();
    KernelEventTimer(const KernelEventTimer&) = delete;
    KernelEventTimer& operator=(const KernelEventTimer&) = delete;

    void begin(cudaStream_t stream);
    // Closes the interval opened by the last begin(); its time will be added to `field`.
    void end(cudaStream_t stream, Field field);
    // Waits for every recorded interval and adds its time to `totals`.
    void collect(KernelTimes& totals);

private:
    struct Interval {
        cudaEvent_t start, stop;
        Field field;
    };
    cudaEvent_t take_event();

    std::vector<cudaEvent_t> free_;
    std::vector<Interval> pending_;
    cudaEvent_t open_ = nullptr;
};

}  // namespace sph
