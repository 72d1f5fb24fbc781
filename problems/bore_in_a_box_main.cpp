// Compiles BoreInABox into the `bore_in_a_box` executable.
#include <memory>

#include "bore_in_a_box.h"

namespace sph {
std::unique_ptr<Problem> make_problem(int, const char* const[]) {
    return std::make_unique<BoreInABox>();
}
}  // namespace sph
