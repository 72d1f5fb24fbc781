// Replacing a file's whole text so that readers never see half of it.
#pragma once

#include <string>

namespace sph {

// Replaces `path` with `text` via a temporary file (`path` + ".tmp") and a rename, so `path`
// always holds either the old or the new complete text. Throws std::runtime_error naming the path.
void write_text_file_atomically(const std::string& path, const std::string& text);

}  // namespace sph
