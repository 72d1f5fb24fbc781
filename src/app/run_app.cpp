#include "app/run_app.h"

#include <exception>

#include "app/command_line.h"
#include "common/interrupt.h"
#include "driver/branch_runner.h"
#include "driver/simulation.h"

namespace sph {

namespace {

int run_branch_file(const Problem& problem, const RunOptions& options, int split_axis,
                    std::ostream& out, std::ostream& err) try {
    const BranchPlan plan = read_branch_plan(options.branches_file);
    if (!options.scenario.empty()) {
        const RunReport report =
            run_scenario(problem, options, split_axis, plan, options.scenario, out);
        print_report(report, out);
        out << "scenario " << options.scenario << " written to " << options.output_dir << "\n";
        return 0;
    }
    const BranchRun run = run_branches(problem, options, split_axis, plan, out);
    int failed = 0;
    for (const BranchOutcome& o : run.outcomes) {
        out << "branch " << o.name << ": " << o.status << " (" << o.wall_seconds << " s on "
            << o.device << ")\n";
        failed += o.status == "failed";
    }
    out << "base " << run.base_seconds << " s, then " << run.outcomes.size() << " branches in "
        << run.branches_seconds << " s on " << run.slots << " slot(s); device memory: base "
        << run.base_device_bytes / 1e6 << " MB, branches at most " << run.peak_branch_bytes / 1e6
        << " MB at once\n";
    out << "branches written to " << options.output_dir << "/branches.csv and "
        << options.output_dir << "/tree_report.md\n";
    return failed > 0 ? 1 : 0;
} catch (const Interrupted& e) {
    // Each running branch wrote a checkpoint into its folder; the tree itself starts over.
    err << "error: " << e.what() << "\n"
        << "The branches that ran to the end are complete in their folders; those interrupted "
           "left a checkpoint in <branch>/checkpoints. Run the same command again to run the "
           "tree anew.\n";
    return 128 + e.signal();
}

}  // namespace

int run_app(int argc, const char* const argv[], Problem& problem, int split_axis, std::ostream& out,
            std::ostream& err) {
    try {
        const std::optional<RunOptions> options = parse_command_line(argc, argv, problem, out);
        if (!options) return 0;  // --help
        install_interrupt_handlers();
        if (!options->branches_file.empty())
            return run_branch_file(problem, *options, split_axis, out, err);
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
