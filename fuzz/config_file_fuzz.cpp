// libFuzzer target: a config file (--config, lines of name = value) for DamBreak, read as the
// program reads it (app/command_line.h). It either gives options or throws an OptionError (a
// std::invalid_argument) naming what is wrong; anything else is a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

#include "app/command_line.h"
#include "dam_break.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path = "/tmp/sph_config_fuzz_" + std::to_string(::getpid()) + ".cfg";
    if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
        std::fwrite(data, 1, size, f);
        std::fclose(f);
    } else {
        return 0;
    }
    sph::DamBreak problem;
    const char* argv[] = {"dambreak", "--config", path.c_str()};
    std::ostringstream help;
    try {
        (void)sph::parse_command_line(3, argv, problem, help);
    } catch (const std::invalid_argument&) {
        // Refused, naming the option: what bad input must get.
    }
    return 0;
}
