// SIGINT and SIGTERM as a request to stop cleanly: the time loop polls interrupt_signal() and,
// when it is set, runs on to the next rebuild, writes a checkpoint, closes its output and stops.
// A second signal ends the process at once (exit status 128 + the signal), unless it comes
// within 0.1 s of the first: that is one request delivered twice (`timeout` signals both the
// program and its process group), and the checkpoint is still written.
#pragma once

namespace sph {

// Installs the handlers (once per process; later calls do nothing).
void install_interrupt_handlers();

// The signal received (SIGINT, SIGTERM), or 0 when none has been.
int interrupt_signal();

// Testing: behaves as if `signal` had been received (0 clears).
void set_interrupt_signal(int signal);

// "SIGINT", "SIGTERM", or "signal N".
const char* interrupt_name(int signal);

}  // namespace sph
