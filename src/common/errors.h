// The error types every layer may throw. run_app turns them into exit codes: an InputError (a bad
// option value, a device that cannot be had, a run that cannot fit) exits with 2, any other
// error (the run itself failed: SimulationError, a device error) with 1.
#pragma once

#include <stdexcept>
#include <string>

namespace sph {

// Bad input from the user; the message names the option or value at fault.
class OptionError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// The run itself failed (blew up, a particle left the domain, a list overflowed, a device broke).
class SimulationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The run stopped on SIGINT or SIGTERM after writing a checkpoint (common/interrupt.h); run_app
// exits with 128 + the signal and says how to go on.
class Interrupted : public std::runtime_error {
public:
    Interrupted(const std::string& message, int signal, std::string checkpoint)
        : std::runtime_error(message), signal_(signal), checkpoint_(std::move(checkpoint)) {}
    int signal() const { return signal_; }
    const std::string& checkpoint() const { return checkpoint_; }

private:
    int signal_;
    std::string checkpoint_;
};

}  // namespace sph
