// The .pvtu index that stitches per-device .vtu pieces into one dataset for ParaView.
#pragma once

#include <string>
#include <vector>

namespace sph {

// Writes `path` listing `piece_files` (relative to the directory of `path`, as VTK resolves
// them) with the arrays write_vtu produces; `has_device_field` must match what the pieces hold,
// or ParaView drops the mismatching array. Atomic like write_vtu; throws std::runtime_error
// naming `path` on failure.
void write_pvtu(const std::string& path, const std::vector<std::string>& piece_files,
                bool has_device_field);

}  // namespace sph
