// A case file's `bodies` (docs/cases.md): rigid bodies moved by a prescribed law, read into
// CaseBody items, and made the problem's MovingBody list once the case's solids are loaded.
#pragma once

#include <memory>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "cases/case_description.h"
#include "cases/yaml_fields.h"
#include "geometry/shape.h"
#include "problem.h"

namespace sph {

// One item of `bodies`; refusals name the case file's line.
CaseBody read_case_body(const YamlFields& f, const YAML::Node& node);

// The case's bodies as the simulator takes them: a body's region from its box or its solid
// (`solids`, loaded, by name), its series read (paths relative to the case file). Throws
// OptionError naming the case's line (and the series file's, for what is wrong in it).
std::vector<MovingBody> case_moving_bodies(const CaseDescription& c,
                                           const std::vector<NamedRegion>& solids);

}  // namespace sph
