// The live progress line: rewritten in place on a terminal, plain lines in a log.
#pragma once

#include <ostream>

#include "common/clock.h"

namespace sph {

struct Progress {
    long iteration;
    double time, t_end, dt;
    double kips;  // over the run so far
    double wall_seconds;
};

class StatusLine {
public:
    // On a terminal the line is redrawn at most every `interval` seconds; in a log, a plain line
    // is written at most every 10 intervals, so logs stay short.
    StatusLine(std::ostream& out, bool terminal, double interval);
    void update(const Progress& p);
    // Ends the in-place line so that what follows starts on a fresh one.
    void finish();

private:
    std::ostream& out_;
    bool terminal_;
    double interval_;
    SteadyClock::time_point last_{};
    bool drawn_ = false;
    bool line_open_ = false;  // on a terminal: a line drawn and not yet ended by finish()
};

// True when `out` is std::cout or std::cerr attached to a terminal.
bool is_terminal(const std::ostream& out);

}  // namespace sph
