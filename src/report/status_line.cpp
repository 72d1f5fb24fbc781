#include "report/status_line.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace sph {

bool is_terminal(const std::ostream& out) {
    if (&out == &std::cout) return isatty(STDOUT_FILENO) != 0;
    if (&out == &std::cerr) return isatty(STDERR_FILENO) != 0;
    return false;
}

StatusLine::StatusLine(std::ostream& out, bool terminal, double interval)
    : out_(out), terminal_(terminal), interval_(terminal ? interval : 10.0 * interval) {}

void StatusLine::update(const Progress& p) {
    const auto now = SteadyClock::now();
    if (drawn_ && std::chrono::duration<double>(now - last_).count() < interval_) return;
    last_ = now;
    drawn_ = true;
    const double rate = p.wall_seconds > 0.0 ? p.time / p.wall_seconds : 0.0;
    const double eta = rate > 0.0 ? (p.t_end - p.time) / rate : 0.0;
    char line[160];
    std::snprintf(line, sizeof line,
                  "it %8ld  t %9.5f / %.3f s  dt %.3e s  %9.1f kips  ETA %6.0f s", p.iteration,
                  p.time, p.t_end, p.dt, p.kips, eta);
    if (terminal_) {
        out_ << '\r' << line << "\033[K" << std::flush;
        line_open_ = true;
    } else {
        out_ << line << '\n' << std::flush;
    }
}

// Ends the line drawn, once: a log line may follow, and a second finish adds no empty line.
void StatusLine::finish() {
    if (line_open_) out_ << '\n' << std::flush;
    line_open_ = false;
}

}  // namespace sph
