// What-if branches (--branches FILE): decision points in simulated time and, at each, the
// branches that start from the base run's state there, each with its changes.
//
// The file, one statement a line ('#' starts a comment):
//
//     at 0.5                 a decision point at t = 0.5 s (taken at the first rebuild from then)
//     branch as_is           a branch with no change: the base going on
//     branch more_viscous    a branch ...
//     alpha 0.1              ... and its changes, each "setting value": alpha, delta
//     at 1.0 in more_viscous a decision point of that branch: its branches start from it (a tree)
//     branch viscous_late
//     delta 0.2
//
// Branch names become folder names: letters, digits, '_' and '-'; unique in the file.
#pragma once

#include <string>
#include <vector>

namespace sph {

struct BranchChange {
    std::string setting;  // "alpha" | "delta"
    double value = 0.0;
};

struct Branch {
    std::string name;
    std::vector<BranchChange> changes;
};

struct DecisionPoint {
    double time = 0.0;   // [s]
    std::string parent;  // the branch it belongs to; empty: the base
    std::vector<Branch> branches;
};

struct BranchPlan {
    std::vector<DecisionPoint> decisions;  // each parent's in increasing time

    // The decision points of `parent` ("" for the base), in the plan's order.
    std::vector<const DecisionPoint*> decisions_of(const std::string& parent) const;
};

// Parses the text of a branch file called `name`; throws OptionError naming the file, the line
// and what is wrong.
BranchPlan parse_branch_plan(const std::string& text, const std::string& name);

// Reads and parses `path`; throws OptionError when it cannot be read or is malformed.
BranchPlan read_branch_plan(const std::string& path);

}  // namespace sph
