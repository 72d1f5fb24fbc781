// A RunState in a checkpoint file (io/sectioned_file.h: magic, kind, format version, a checksum
// per section, written atomically), and the checks a restart makes before anything runs.
//
// Sections: META (problem, build, settings, time and counters), PART (every particle field at
// full precision), SLCE (the slice map), BLNC (the balancer's timings, with several devices),
// OUTP (the output series), GAVG (with --gauge-average: the interval under way).
#pragma once

#include <string>

#include "checkpoint/run_state.h"

namespace sph {

constexpr std::uint32_t kCheckpointKind = 0x544B4843;  // "CHKT"
constexpr std::uint32_t kCheckpointVersion = 2;        // 2: positions in fixed point

// This executable's build: version, commit and compiler (from CMake). A checkpoint of another
// build is refused: its kernels may round differently.
const std::string& build_id();

// Writes `state` to `path` atomically. Throws std::runtime_error naming the path.
void write_checkpoint(const std::string& path, const RunState& state);

// Reads and verifies a checkpoint: throws CorruptFile naming the check that failed (not a
// checkpoint, another format version, truncated, a checksum, inconsistent sizes).
RunState read_checkpoint(const std::string& path);
// The same from bytes already read (the fuzz target's entry).
RunState parse_checkpoint(const std::string& bytes, const std::string& name);

}  // namespace sph
