#include "app/run_app.h"

#include <exception>
#include <filesystem>

#include "app/command_line.h"
#include "branches/branch_runner.h"
#include "common/interrupt.h"
#include "driver/simulation.h"

namespace sph {

namespace {

int run_branch_file(const Problem& problem, const RunOptions& options, int split_axis,
                    std::ostream& out, std::ostream& err, const Ranks& ranks) try {
    const BranchPlan plan = read_branch_plan(options.branches_file);
    if (!options.scenario.empty()) {
        const RunReport report =
            run_scenario(problem, options, split_axis, plan, options.scenario, out);
        print_report(report, out);
        out << "scenario " << options.scenario << " written to " << options.output_dir << "\n";
        return 0;
    }
    const BranchRun run = run_branches(problem, options, split_axis, plan, out, ranks);
    if (ranks.rank() != 0) return 0;  // rank 0 sums up
    int failed = 0;
    for (const BranchOutcome& o : run.outcomes) {
        out << "branch " << o.name << ": " << o.status << " (" << o.wall_seconds << " s on "
            << o.device << (ranks.size() > 1 ? " of rank " + std::to_string(o.rank) : "") << ")\n";
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
    // Each running branch wrote a checkpoint into its folder.
    err << "error: " << e.what() << "\n"
        << "The branches that ran to the end are complete in their folders; those interrupted "
           "left a checkpoint in <branch>/checkpoints. To go on: the same command with "
           "--restart latest (the branches that ended are kept, the others go on from their "
           "checkpoints).\n";
    return 128 + e.signal();
}

// Under mpirun a plain run is one simulation across the ranks, and --branches shares the
// branches out; --scenario (one branch's story in memory) runs in one process.
void check_ranks(const RunOptions& options, const Ranks& ranks) {
    if (ranks.size() == 1) return;
    if (!options.scenario.empty()) {
        throw OptionError("started by mpirun with " + std::to_string(ranks.size()) +
                          " ranks: --scenario runs in one process; start it without mpirun");
    }
}

int run_app_once(int argc, const char* const argv[], Problem& problem, int split_axis,
                 std::ostream& out, std::ostream& err, const Ranks& ranks) {
    // Each message goes out in one piece: under mpirun a rank's stderr is forwarded as it comes,
    // and the abort's banner from another rank could otherwise land inside it.
    const std::string who = ranks.size() > 1 ? "rank " + std::to_string(ranks.rank()) + ": " : "";
    try {
        const std::optional<RunOptions> options = parse_command_line(argc, argv, problem, out);
        if (!options) return 0;  // --help
        check_ranks(*options, ranks);
        install_interrupt_handlers();
        if (!options->branches_file.empty()) {
            return run_branch_file(problem, *options, split_axis, out, err, ranks);
        }
        Simulation simulation(problem, *options, split_axis, {}, ranks);
        const RunReport report = simulation.run(out);
        if (ranks.rank() != 0) return 0;  // rank 0 speaks for a simulation across ranks
        print_report(report, out);
        // report.html is left out where it could not be written (a warning said why).
        const std::string page = options->output_dir + "/report.html";
        out << "report written to " << options->output_dir << "/run_report.json"
            << (std::filesystem::exists(page) ? " and " + page : std::string()) << "\n";
        return 0;
    } catch (const Interrupted& e) {
        err << who + "error: " + e.what() +
                   "\nThe output so far is valid. To go on: the same command with --restart " +
                   e.checkpoint() + " (or --restart latest)\n";
        return 128 + e.signal();
    } catch (const std::invalid_argument& e) {
        err << who + "error: " + e.what() + "\n(run with --help for the list of options)\n";
        return 2;
    } catch (const std::exception& e) {
        err << who + "error: " + e.what() + "\n";
        return 1;
    }
}

}  // namespace

int run_app(int argc, const char* const argv[], Problem& problem, int split_axis, std::ostream& out,
            std::ostream& err, const Ranks& ranks) {
    const int code = run_app_once(argc, argv, problem, split_axis, out, err, ranks);
    // A rank that fails ends the job at once, with its message above: the others may be waiting
    // for it in a collective.
    if (code != 0 && ranks.size() > 1) ranks.abort(code);
    return code;
}

}  // namespace sph
