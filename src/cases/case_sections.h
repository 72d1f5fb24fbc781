// A case file's instruments (the command line's options by name: gauge, probe, wall-sensor,
// wall-panel, wall-moment, and the surge front) and its settings (any option of the program, by
// its name, below the command line).
#pragma once

#include <yaml-cpp/yaml.h>

#include "cases/case_description.h"
#include "cases/yaml_fields.h"

namespace sph {

void read_case_instruments(const YamlFields& fields, const YAML::Node& node, Instruments& in);
// A damping zone: {axis: x|y|z, from: M, to: M, strength: 1/S (10)}.
DampingZone read_damping_zone(const YamlFields& fields, const YAML::Node& node);
// dp and t-end become the run's defaults; every other setting is kept with its line.
void read_case_settings(const YamlFields& fields, const YAML::Node& node, CaseDescription& c);

}  // namespace sph
