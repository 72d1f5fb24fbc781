// Compiles BoreInABox into the `boreinabox` executable.
#include <memory>

#include "bore_in_a_box.h"

namespace sph {
std::unique_ptr<Problem> make_problem() {
    return std::make_unique<BoreInABox>();
}
}  // namespace sph
