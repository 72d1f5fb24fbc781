// Text made safe for XML: the VTK indexes' file names and the report's SVG plots hold it.
#pragma once

#include <string>

namespace sph {

// Escapes & < > " ' so that `value` can stand inside a double-quoted XML attribute or as text.
std::string xml_attribute_escape(const std::string& value);

}  // namespace sph
