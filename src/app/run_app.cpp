#include "app/run_app.h"

#include <exception>

#include "app/command_line.h"
#include "driver/simulation.h"

namespace sph {

int run_app(int argc, const char* const argv[], Problem& problem, int split_axis, std::ostream& out,
            std::ostream& err) {
    try {
        const std::optional<RunOptions> options = parse_command_line(argc, argv, problem, out);
        if (!options) return 0;  // --help
        Simulation simulation(problem, *options, split_axis);
        const RunReport report = simulation.run(out);
        print_report(report, out);
        out << "report written to " << options->output_dir << "/run_report.json\n";
        return 0;
    } catch (const std::invalid_argument& e) {
        err << "error: " << e.what() << "\n(run with --help for the list of options)\n";
        return 2;
    } catch (const std::exception& e) {
        err << "error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace sph
