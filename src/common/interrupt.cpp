#include "common/interrupt.h"

#include <time.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstring>

namespace sph {

namespace {

std::atomic<int> received{0};
// When the first signal came (CLOCK_MONOTONIC, ns; 0: none yet).
std::atomic<std::int64_t> first_at{0};
static_assert(std::atomic<int>::is_always_lock_free &&
                  std::atomic<std::int64_t>::is_always_lock_free,
              "the signal handler needs lock-free flags");

// A second signal this soon after the first is the same request delivered twice: `timeout`
// sends its signal to the program and then to the program's process group, so the program
// gets it twice within microseconds; a person who presses Ctrl-C again does so later than that.
constexpr std::int64_t kOneRequestNs = 100'000'000;  // 0.1 s

std::int64_t monotonic_ns() {  // clock_gettime is async-signal-safe
    timespec t{};
    ::clock_gettime(CLOCK_MONOTONIC, &t);
    return std::int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

extern "C" void on_interrupt(int signal) {
    const std::int64_t now = monotonic_ns();
    std::int64_t first = 0;
    if (first_at.compare_exchange_strong(first, now)) {
        received.store(signal);
        return;
    }
    if (now - first < kOneRequestNs) return;  // the first one's twin
    // A second request: the user does not want to wait for the checkpoint.
    constexpr char kMessage[] = "\nsecond signal: stopping at once, without a checkpoint\n";
    [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    ::_exit(128 + signal);
}

}  // namespace

void install_interrupt_handlers() {
    static std::atomic<bool> installed{false};
    if (installed.exchange(true)) return;
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;  // file writes and waits in progress carry on
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

int interrupt_signal() {
    return received.load();
}

void set_interrupt_signal(int signal) {
    first_at.store(signal != 0 ? monotonic_ns() : 0);
    received.store(signal);
}

const char* interrupt_name(int signal) {
    switch (signal) {
        case SIGINT:
            return "SIGINT";
        case SIGTERM:
            return "SIGTERM";
        default:
            return "a signal";
    }
}

}  // namespace sph
