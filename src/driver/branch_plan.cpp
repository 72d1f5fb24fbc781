#include "driver/branch_plan.h"

#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "common/errors.h"

namespace sph {

namespace {

bool is_name(const std::string& word) {
    if (word.empty() || word.size() > 64) return false;
    for (char c : word) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
    }
    return true;
}

// A number that is the whole word, finite.
bool read_number(const std::string& word, double& value) {
    std::istringstream in(word);
    in >> value;
    return !in.fail() && in.eof() && std::isfinite(value);
}

}  // namespace

BranchPlan parse_branch_plan(const std::string& text, const std::string& name) {
    BranchPlan plan;
    std::set<std::string> names;
    std::map<std::string, double> decision_time_of;  // each branch's start
    std::istringstream lines(text);
    std::string line;
    int number = 0;
    auto fail = [&](const std::string& why) {
        throw OptionError("--branches " + name + " line " + std::to_string(number) + ": " + why);
    };
    while (std::getline(lines, line)) {
        ++number;
        const std::size_t hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        std::istringstream in(line);
        std::vector<std::string> words((std::istream_iterator<std::string>(in)),
                                       std::istream_iterator<std::string>());
        if (words.empty()) continue;
        const std::string& keyword = words[0];
        if (keyword == "at") {
            double time = 0.0;
            const bool nested = words.size() == 4 && words[2] == "in";
            if ((words.size() != 2 && !nested) || !read_number(words[1], time) || time <= 0.0) {
                fail(
                    "'at' takes one time after the start, in seconds (at 0.5), and may name the "
                    "branch it belongs to (at 1.0 in NAME)");
            }
            const std::string parent = nested ? words[3] : "";
            if (nested && decision_time_of.count(parent) == 0) {
                fail("no branch '" + parent + "' before this line");
            }
            if (nested && time <= decision_time_of[parent]) {
                fail("a decision point of branch '" + parent +
                     "' must come after the branch starts");
            }
            const std::vector<const DecisionPoint*> siblings = plan.decisions_of(parent);
            if (!siblings.empty() && time <= siblings.back()->time) {
                fail("decision points must come in increasing time");
            }
            plan.decisions.push_back(DecisionPoint{time, parent, {}});
        } else if (keyword == "branch") {
            if (plan.decisions.empty()) fail("a branch before any decision point ('at T' first)");
            if (words.size() != 2 || !is_name(words[1])) {
                fail("'branch' takes one name of letters, digits, '_' and '-'");
            }
            if (words[1] == "base" || !names.insert(words[1]).second) {
                fail("branch name '" + words[1] +
                     "' is taken (names are folders: unique, not 'base')");
            }
            plan.decisions.back().branches.push_back(Branch{words[1], {}});
            decision_time_of[words[1]] = plan.decisions.back().time;
        } else if (keyword == "alpha" || keyword == "delta") {
            if (plan.decisions.empty() || plan.decisions.back().branches.empty()) {
                fail("a change before any branch ('branch NAME' first)");
            }
            double value = 0.0;
            if (words.size() != 2 || !read_number(words[1], value) || value < 0.0) {
                fail("'" + keyword + "' takes one number >= 0");
            }
            plan.decisions.back().branches.back().changes.push_back({keyword, value});
        } else {
            fail("unknown statement '" + keyword + "' (at, branch, alpha, delta)");
        }
    }
    if (plan.decisions.empty()) {
        throw OptionError("--branches " + name + ": no decision point ('at T')");
    }
    for (const DecisionPoint& d : plan.decisions) {
        if (d.branches.empty()) {
            throw OptionError("--branches " + name + ": the decision point at " +
                              std::to_string(d.time) + " s has no branch");
        }
    }
    return plan;
}

std::vector<const DecisionPoint*> BranchPlan::decisions_of(const std::string& parent) const {
    std::vector<const DecisionPoint*> of;
    for (const DecisionPoint& d : decisions) {
        if (d.parent == parent) of.push_back(&d);
    }
    return of;
}

BranchPlan read_branch_plan(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw OptionError("--branches: cannot read '" + path + "'");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return parse_branch_plan(text, path);
}

}  // namespace sph
