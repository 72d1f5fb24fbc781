// A reusable barrier for the device threads that any of them can break, so that an error in
// one thread stops the others instead of leaving them waiting forever.
#pragma once

#include <condition_variable>
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
    explicit Barrier(int parties) : parties_(parties) {}
    // Waits until all parties have arrived; throws BarrierAborted once abort() was called.
    void arrive_and_wait();
    void abort();
    bool aborted() const;

private:
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    const int parties_;
    int waiting_ = 0;
    long generation_ = 0;
    bool aborted_ = false;
};

}  // namespace sph
