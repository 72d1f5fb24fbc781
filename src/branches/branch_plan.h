// What-if branches (--branches FILE): decision points in simulated time and, at each, the
// branches that start from the base run's state there, each with its changes.
//
// The file, one statement a line ('#' starts a comment):
//
//     at 0.5                 a decision point at t = 0.5 s (taken at the first rebuild from then)
//     branch as_is           a branch with no change: the base going on
//     branch no_obstacle     a branch ...
//     remove obstacle        ... and its changes (BranchChange): a problem's named region removed,
//     add_box 1.4 0 0 1.44 1 0.3        a box of wall particles added,
//     add_mesh wall.stl translate 1.4 0 0   a closed mesh filled with them (the path relative to
//                                           this file; scale S, rotate RX RY RZ and translate
//                                           X Y Z place it as a case file's transform does),
//     alpha 0.1                         a physics setting changed,
//     body gate start 0.3               a body's law released later (or: velocity VX VY VZ), a
//                                       floating body's density or mass (density X, mass X),
//     gauge G_wall 1.3 0.5              an instrument added
//     at 1.0 in no_obstacle  a decision point of that branch: its branches start from it (a tree)
//     branch no_obstacle_late
//     delta 0.2
//
// Branch names become folder names: letters, digits, '_' and '-'; unique in the file.
#pragma once

#include <string>
#include <vector>

#include "bodies/body_changes.h"
#include "geometry/transform.h"
#include "instruments.h"
#include "problem.h"

namespace sph {

// One change a branch makes at its decision point.
struct BranchChange {
    enum class Kind {
        kAlpha,    // --alpha `value`
        kDelta,    // --delta `value`
        kRemove,   // the boundary particles of the problem's region `name` go (a gate opens)
        kAddBox,   // boundary particles fill `box` (a wall raised, an obstacle placed)
        kAddMesh,  // boundary particles fill the closed mesh `mesh`, placed by `transform`
        kGauge,    // instruments added from the decision point on
        kProbe,
        kSensor,  // a wall sensor's disc, a load panel, a moment panel or a surface panel
        kBody,    // `body_change`: a body's law or mass
    };
    Kind kind = Kind::kAlpha;
    int line = 0;  // in the branch file, for messages about it
    double value = 0.0;
    std::string name;  // the region, or the instrument
    Box box{};
    std::string mesh;  // kAddMesh: the mesh file's path (relative to the working directory)
    Transform transform;
    Gauge gauge;
    Probe probe;
    WallSensor sensor;
    BodyChange body_change;
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
    // The branch called `name` and the decision point it starts from; nullptr when none.
    const Branch* find(const std::string& name, const DecisionPoint** from = nullptr) const;
};

// Parses the text of a branch file called `name`; throws OptionError naming the file, the line
// and what is wrong.
BranchPlan parse_branch_plan(const std::string& text, const std::string& name);

// Reads and parses `path`; throws OptionError when it cannot be read or is malformed.
BranchPlan read_branch_plan(const std::string& path);

}  // namespace sph
