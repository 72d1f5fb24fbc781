// Compiles the problem of a case file (--case FILE, docs/cases.md) into the `case` executable.
#include <memory>

#include "cases/case_problem.h"

namespace sph {
std::unique_ptr<Problem> make_problem(int argc, const char* const argv[]) {
    return case_problem_from_arguments(argc, argv, SPH_SPLIT_AXIS);
}
}  // namespace sph
