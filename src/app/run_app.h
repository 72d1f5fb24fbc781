// The command-line program shared by every problem executable.
#pragma once

#include <ostream>

#include "problem.h"
#include "ranks/ranks.h"

namespace sph {

// Parses options, runs the problem and prints the report. Returns the process exit code:
// 0 success, 1 the run failed, 2 bad options (the message names the option). Under mpirun
// (`ranks`), a rank that fails prints its message (naming the rank) and ends every rank.
int run_app(int argc, const char* const argv[], Problem& problem, int split_axis, std::ostream& out,
            std::ostream& err, const Ranks& ranks = one_process());

}  // namespace sph
