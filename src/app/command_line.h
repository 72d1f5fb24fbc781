// The command line and config file of a problem executable, read into RunOptions (Boost
// .Program_options), and the parsers of option values it uses. Every error is an OptionError
// that names the option.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "driver/run_options.h"

namespace sph {

class Problem;

// Parses argv; prints the help text and returns nothing for --help.
std::optional<RunOptions> parse_command_line(int argc, const char* const argv[], Problem& problem,
                                             std::ostream& help_out);

// --devices: GPU ids ("0,1"), or a count of CPU devices ("3") where `backend` is the CPU.
DeviceSelection parse_devices(const std::string& text, BackendChoice backend);
// A byte count such as 4000000, 512M or 2G (powers of 1024).
std::uint64_t parse_bytes(const std::string& text, const char* option);

}  // namespace sph
