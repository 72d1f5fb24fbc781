// The items of a comma-separated text, empty ones too ("a,,b": a, "", b; "a,": a, ""; "": one
// empty item): an option's list, checked item by item, or a line of a CSV file.
#pragma once

#include <string>
#include <vector>

namespace sph {

inline std::vector<std::string> comma_items(const std::string& text) {
    std::vector<std::string> items;
    for (std::size_t start = 0;;) {
        const std::size_t comma = text.find(',', start);
        items.push_back(text.substr(start, comma - start));
        if (comma == std::string::npos) return items;
        start = comma + 1;
    }
}

}  // namespace sph
