// One piece of host work at a time on a thread of its own: the caller hands it over and goes on,
// and later waits for it. A run that writes a gauge row every iteration formats and writes it
// here while the main thread queues the next step, instead of leaving the GPU idle meanwhile.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace sph {

class BackgroundTask {
public:
    BackgroundTask() : thread_([this] { serve(); }) {}
    ~BackgroundTask() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            closing_ = true;
        }
        changed_.notify_all();
        thread_.join();  // a task still running finishes first; its error is dropped
    }
    BackgroundTask(const BackgroundTask&) = delete;
    BackgroundTask& operator=(const BackgroundTask&) = delete;

    // Waits for the task before (rethrowing its error), then starts `task`.
    void run(std::function<void()> task) {
        wait();
        {
            std::lock_guard<std::mutex> lock(mutex_);
            task_ = std::move(task);
            busy_ = true;
        }
        changed_.notify_all();
    }

    // Waits until no task runs; rethrows the error of the last one, once.
    void wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return !busy_; });
        if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
    }

private:
    void serve() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            changed_.wait(lock, [this] { return closing_ || busy_; });
            if (!busy_) return;  // closing, nothing left
            std::function<void()> task = std::move(task_);
            lock.unlock();
            std::exception_ptr failure;
            try {
                task();
            } catch (...) {
                failure = std::current_exception();
            }
            lock.lock();
            busy_ = false;
            failure_ = failure;
            changed_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    std::function<void()> task_;  // handed over, not yet taken
    std::exception_ptr failure_;
    bool busy_ = false;  // a task handed over and not finished
    bool closing_ = false;
    std::thread thread_;  // last: starts once the rest is ready
};

}  // namespace sph
