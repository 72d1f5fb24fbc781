// libFuzzer target: a moving body's motion series (bodies/motion_series.h), parsed as a case's
// `series:` file is. It either gives samples that a law can take (at least two, times increasing,
// the first at zero displacement, every value finite) or throws a std::invalid_argument naming
// the line; anything else is a finding, and so is accepted samples that break those promises.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "bodies/motion_series.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const auto samples = sph::parse_motion_series(text, "fuzz.csv");
        if (samples.size() < 2) std::abort();
        for (std::size_t k = 0; k < samples.size(); ++k) {
            for (double v : samples[k]) {
                if (!std::isfinite(v)) std::abort();
            }
            if (k > 0 && !(samples[k][0] > samples[k - 1][0])) std::abort();
        }
        if (samples[0][1] != 0.0 || samples[0][2] != 0.0 || samples[0][3] != 0.0 ||
            samples[0][4] != 0.0) {
            std::abort();
        }
    } catch (const std::invalid_argument&) {
        // Refused, naming the line: what bad input must get.
    }
    return 0;
}
