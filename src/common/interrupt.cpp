#include "common/interrupt.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace sph {

namespace {

std::atomic<int> received{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void on_interrupt(int signal) {
    if (received.exchange(signal) != 0) {
        // The second signal: the user does not want to wait for the checkpoint.
        constexpr char kMessage[] = "\nsecond signal: stopping at once, without a checkpoint\n";
        [[maybe_unused]] const ssize_t ignored =
            ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
        ::_exit(128 + signal);
    }
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
