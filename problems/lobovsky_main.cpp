// Compiles Lobovsky et al.'s dam break into the `lobovsky` executable.
#include <memory>

#include "lobovsky.h"

namespace sph {
std::unique_ptr<Problem> make_problem(int, const char* const[]) {
    return std::make_unique<Lobovsky>();
}
}  // namespace sph
