// A reusable barrier for the device threads that any of them can break, so that an error in
// one thread stops the others instead of leaving them waiting forever.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <stdexcept>

namespace sph {

// Thrown in every thread waiting at (or arriving at) a barrier that was aborted.
class BarrierAborted : public std::runtime_error {
public:
    BarrierAborted() : std::runtime_error("another device thread failed") {}
};

class Barrier {
public:
    // `on_open`, when given, runs on the last thread to arrive, before any leaves (the others
    // wait for it); if it throws, the barrier is aborted and the error goes to that thread.
    explicit Barrier(int parties, std::function<void()> on_open = {})
        : parties_(parties), on_open_(std::move(on_open)) {}
    // Waits until all parties have arrived; throws BarrierAborted once abort() was called.
    void arrive_and_wait();
    void abort();
    bool aborted() const;

private:
    // How long an arriving thread watches for the barrier to open before it sleeps: the device
    // threads meet twice an iteration, a few microseconds apart on a GPU, and waking a sleeping
    // thread takes tens of microseconds, while the GPU waits for its next launch.
    static constexpr std::chrono::microseconds kSpin{200};

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    const int parties_;
    const std::function<void()> on_open_;
    int waiting_ = 0;
    std::atomic<long> generation_{0};  // written under mutex_; read without it while spinning
    std::atomic<bool> aborted_{false};
};

}  // namespace sph
