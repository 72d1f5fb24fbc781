// The tree report of a what-if branch run (--branches): the gauge series of every scenario
// (ROOT/base/, ROOT/<branch>/) compared per instrument, as a markdown page (tree_report.md), the
// same figures as CSV (tree_report.csv) and one SVG plot per instrument (tree_report/<name>.svg).
#pragma once

#include <string>
#include <vector>

namespace sph {

// One scenario of the tree.
struct TreeNode {
    std::string name;            // "base" or the branch's name; also its folder under root
    std::string parent;          // "" for base; "base" or a branch name
    double decision_time = 0.0;  // [s] where it left its parent (0 for base)
    std::string status;          // "completed", "branched", "failed"
};

// Reads every node's ROOT/<name>/gauges.csv (a node without one, a failed branch, is left out of
// the figures and named in the report) and writes ROOT/tree_report.md (a markdown table per
// instrument comparing the scenarios), ROOT/tree_report.csv (the same figures, one row per
// (instrument, scenario)) and ROOT/tree_report/<instrument>.svg (each scenario's series, its
// decision time dashed). Each scenario's figures cover its rows from its decision time on; the
// difference of its maximum from its parent's is over the same window. Returns the paths
// written. Throws std::runtime_error naming the file when a gauges.csv is malformed or an output
// cannot be written.
std::vector<std::string> write_tree_report(const std::string& root,
                                           const std::vector<TreeNode>& nodes);

}  // namespace sph
