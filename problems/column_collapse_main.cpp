// Compiles ColumnCollapse into the `column_collapse` executable (a validation case).
#include <memory>

#include "column_collapse.h"

namespace sph {
std::unique_ptr<Problem> make_problem(int, const char* const[]) {
    return std::make_unique<ColumnCollapse>();
}
}  // namespace sph
