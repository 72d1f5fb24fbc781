// Everything a user sets for a run, parsed from the command line and an optional config file.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace sph {

class Problem;

enum class BackendChoice { kAuto, kCpu, kCuda };

// A bad option value; the message names the option.
class OptionError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct RunOptions {
    BackendChoice backend = BackendChoice::kAuto;
    // GPU ids ("0,1"; "0,0" runs two devices on one GPU) or, with the CPU back end, a count of
    // virtual devices ("4"). Empty: GPU 0, or one CPU device.
    std::string devices;
    double dp = 0.0;     // particle spacing [m]; the problem's default when not given
    double t_end = 0.0;  // [s]; the problem's default when not given
    std::string output_dir = "output";
    double output_every = 0.1;  // simulated seconds between output frames
    bool write_output = true;
    int rebuild_every = 10;  // k: iterations between neighbour-list rebuilds
    int max_neighbours = 128;
    double list_skin = 0.1;   // list radius = 2h (1 + skin): covers motion between rebuilds
    double h_factor = 1.3;    // h = h_factor * dp
    double c0_factor = 20.0;  // c0 = c0_factor * sqrt(g H)
    double cfl = 0.3;
    double viscosity_alpha = 0.05;
    double diffusion_delta = 0.1;
    double rho0 = 1000.0;
    double gamma = 7.0;
    double gravity = 9.81;
    int threads = 0;               // OpenMP threads of the CPU back end; 0 = OpenMP's default
    double status_interval = 1.0;  // wall seconds between status lines on a terminal
};

// Parses argv; prints the help text and returns nothing for --help. Throws OptionError.
std::optional<RunOptions> parse_command_line(int argc, const char* const argv[], Problem& problem,
                                             std::ostream& help_out);

std::string to_string(BackendChoice backend);

// The GPU ids of a --devices list ("0,1"); throws OptionError naming --devices.
std::vector<int> parse_gpu_list(const std::string& text);
// The number of virtual CPU devices of --devices ("3"); throws OptionError naming --devices.
int parse_device_count(const std::string& text);

}  // namespace sph
