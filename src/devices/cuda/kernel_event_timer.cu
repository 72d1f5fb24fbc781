#include "devices/cuda/kernel_event_timer.h"

#include "cuda/cuda_check.h"

namespace sph {

double GpuTraceClock::at(cudaEvent_t event) const {
    float ms = 0.0f;
    SPH_CUDA_CHECK(cudaEventElapsedTime(&ms, origin, event));
    return origin_seconds + 1e-3 * ms;
}

void GpuTraceClock::add(int track, const char* name, const char* category, cudaEvent_t start,
                        cudaEvent_t stop) const {
    const double a = at(start);
    trace->add(process, track, name, category, a, at(stop) - a);
}

KernelEventTimer::~KernelEventTimer() {
    for (auto e : free_) cudaEventDestroy(e);
    for (auto& i : pending_) {
        cudaEventDestroy(i.start);
        cudaEventDestroy(i.stop);
    }
    if (open_ != nullptr) cudaEventDestroy(open_);
}

cudaEvent_t KernelEventTimer::take_event() {
    if (!free_.empty()) {
        cudaEvent_t e = free_.back();
        free_.pop_back();
        return e;
    }
    cudaEvent_t e = nullptr;
    SPH_CUDA_CHECK(cudaEventCreate(&e));
    return e;
}

void KernelEventTimer::begin(cudaStream_t stream) {
    open_ = take_event();
    SPH_CUDA_CHECK(cudaEventRecord(open_, stream));
}

void KernelEventTimer::end(cudaStream_t stream, Field field, const char* name) {
    cudaEvent_t stop = take_event();
    SPH_CUDA_CHECK(cudaEventRecord(stop, stream));
    const bool traced = clock_ != nullptr && clock_->trace != nullptr;
    pending_.push_back(Interval{open_, stop, field, traced ? name : nullptr});
    open_ = nullptr;
}

void KernelEventTimer::collect_finished(KernelTimes& totals) {
    std::size_t finished = 0;
    while (finished < pending_.size()) {
        const cudaError_t status = cudaEventQuery(pending_[finished].stop);
        if (status == cudaErrorNotReady) break;
        SPH_CUDA_CHECK(status);
        ++finished;
    }
    std::vector<Interval> rest(pending_.begin() + std::ptrdiff_t(finished), pending_.end());
    pending_.resize(finished);
    collect(totals);  // waits for nothing: each of them has finished
    pending_ = std::move(rest);
}

void KernelEventTimer::collect(KernelTimes& totals) {
    for (auto& interval : pending_) {
        SPH_CUDA_CHECK(cudaEventSynchronize(interval.stop));
        float ms = 0.0f;
        SPH_CUDA_CHECK(cudaEventElapsedTime(&ms, interval.start, interval.stop));
        if (interval.field != nullptr) totals.*interval.field += 1e-3 * ms;
        if (interval.name != nullptr && clock_ != nullptr && clock_->trace != nullptr) {
            clock_->add(track_, interval.name, "kernel", interval.start, interval.stop);
        }
        free_.push_back(interval.start);
        free_.push_back(interval.stop);
    }
    pending_.clear();
}

}  // namespace sph
