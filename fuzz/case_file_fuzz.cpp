// libFuzzer target: a case file (src/cases/case_file.h), read and laid out as the case program
// does (meshes and rasters it names are not there, so those are refused). Whatever the bytes, it
// either gives a problem or throws an OptionError (a std::invalid_argument) naming the file and
// the line; anything else (another exception, a crash, an overflow, a hang) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cases/case_file.h"
#include "cases/case_problem.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        sph::CaseProblem problem(sph::parse_case_text(text, "fuzz.yaml"));
        const double dp = problem.default_dp();
        problem.check_resolution(dp);
        // Lay out only small cases: a fuzzed dp of 1e-6 m in a 1 m tank is a trillion particles,
        // which the program refuses later (it would not fit), not a finding of the reader.
        const sph::Box d = problem.domain(dp);
        const double points =
            (d.hi[0] - d.lo[0]) / dp * (d.hi[1] - d.lo[1]) / dp * (d.hi[2] - d.lo[2]) / dp;
        if (points < 2e5) {
            std::size_t count = 0;
            problem.fill(dp, [&](const sph::SetupParticle&) { ++count; });
        }
    } catch (const std::invalid_argument&) {
        // Refused, naming the file and the line: what bad input must get.
    }
    return 0;
}
