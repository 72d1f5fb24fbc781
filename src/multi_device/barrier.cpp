#include "multi_device/barrier.h"

#include <thread>

namespace sph {

void Barrier::arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (aborted_) throw BarrierAborted();
    const long generation = generation_;
    if (++waiting_ == parties_) {
        if (on_open_) {
            try {
                on_open_();
            } catch (...) {
                aborted_ = true;
                changed_.notify_all();
                throw;
            }
        }
        waiting_ = 0;
        ++generation_;
        changed_.notify_all();
        return;
    }
    lock.unlock();
    const auto give_up = std::chrono::steady_clock::now() + kSpin;
    while (generation_.load() == generation && !aborted_.load() &&
           std::chrono::steady_clock::now() < give_up) {
        std::this_thread::yield();
    }
    lock.lock();
    changed_.wait(lock, [&] { return generation_ != generation || aborted_; });
    if (generation_ == generation) throw BarrierAborted();
}

void Barrier::abort() {
    std::lock_guard<std::mutex> lock(mutex_);
    aborted_ = true;
    changed_.notify_all();
}

bool Barrier::aborted() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return aborted_;
}

}  // namespace sph
