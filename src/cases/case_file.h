// Reads a case file (YAML, docs/cases.md) into a CaseDescription. Every refusal is an
// OptionError naming the file and the line: a malformed document, an unknown key, a value of the
// wrong type or unit, a missing key.
#pragma once

#include <string>

#include "cases/case_description.h"

namespace sph {

CaseDescription read_case_file(const std::string& path);
// The same from text already read; `path` names it in messages and anchors relative paths.
CaseDescription parse_case_text(const std::string& text, const std::string& path);

}  // namespace sph
