// The command-line program shared by every problem executable.
#pragma once

#include <ostream>

#include "problem.h"

namespace sph {

// Parses options, runs the problem and prints the report. Returns the process exit code:
// 0 success, 1 the run failed, 2 bad options (the message names the option).
int run_app(int argc, const char* const argv[], Problem& problem, int split_axis, std::ostream& out,
            std::ostream& err);

}  // namespace sph
