// A branch's changes (branches/branch_plan.h) as run options: what its restart from the decision
// point applies, and the checks a plan passes against the problem before anything runs.
#pragma once

#include <string>

#include "branches/branch_plan.h"
#include "driver/run_options.h"
#include "problem.h"

namespace sph {

// The options of `branch`, going on from decision point `k` of its parent (the base or a branch,
// run with `parent` into parent.output_dir), its folder under `root_dir`. It keeps its parent's
// settings and instruments and adds its own; its wall changes are applied once, to the state it
// starts from.
RunOptions branch_options(const RunOptions& parent, const Branch& branch, std::size_t k,
                          const std::string& root_dir);

// Throws OptionError naming the branch file's line for a change that does not fit the problem
// or the run: a region the problem does not name, a box outside its domain or holding no
// particle, an instrument outside the domain or named as one the branch already has; and for a
// decision point at or past --t-end.
void check_branch_plan(const BranchPlan& plan, const Problem& problem, const RunOptions& options);

}  // namespace sph
