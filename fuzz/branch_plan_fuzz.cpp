// libFuzzer target: a branch file (--branches, branches/branch_plan.h), parsed as the program
// parses it. It either gives a plan or throws an OptionError naming the line and what is wrong;
// anything else is a finding. (The meshes it names are read when the plan is checked against the
// problem, by the mesh reader's own target.)
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "branches/branch_plan.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        (void)sph::parse_branch_plan(text, "plans/fuzz.txt");
    } catch (const std::invalid_argument&) {
        // Refused, naming the line: what bad input must get.
    }
    return 0;
}
