#include "app/run_app.h"

#include <exception>

#include "app/command_line.h"
#include "common/interrupt.h"
#include "driver/branch_runner.h"
#include "driver/simulation.h"

namespace sph {

int run_app(int argc, const char* const argv[], Problem& problem, int split_axis, std::ostream& out,
            std::ostream& err) {
    try {
        const std::optional<RunOptions> options = parse_command_line(argc, argv, problem, out);
        if (!options) return 0;  // --help
        install_interrupt_handlers();
        if (!options->branches_file.empty()) {
            const BranchPlan plan = read_branch_plan(options->branches_file);
            const std::vector<BranchOutcome> outcomes =
                run_branches(problem, *options, split_axis, plan, out);
            int failed = 0;
            for (const BranchOutcome& o : outcomes) {
                out << "branch " << o.name << ": " << o.status << " (" << o.wall_seconds << " s)\n";
                failed += o.status == "failed";
            }
            out << "branches written to " << options->output_dir << "/branches.csv\n";
            return failed > 0 ? 1 : 0;
        }
        Simulation simulation(problem, *options, split_axis);
        const RunReport report = simulation.run(out);
        print_report(report, out);
        out << "report written to " << options->output_dir << "/run_report.json\n";
        return 0;
    } catch (const Interrupted& e) {
        err << "error: " << e.what() << "\n"
            << "The output so far is valid. To go on: the same command with --restart "
            << e.checkpoint() << " (or --restart latest)\n";
        return 128 + e.signal();
    } catch (const std::invalid_argument& e) {
        err << "error: " << e.what() << "\n(run with --help for the list of options)\n";
        return 2;
    } catch (const std::exception& e) {
        err << "error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace sph
