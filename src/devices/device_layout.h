// How much memory a device needs for a run, known before anything is allocated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cell_grid.h"
#include "instruments_body.h"
#include "neighbour_list.h"
#include "particle_record.h"
#include "vec.h"

namespace sph {

// One array (or group of arrays) of a device and its bytes.
struct MemoryPart {
    std::string name;
    std::size_t bytes;
};

struct DeviceLayout {
    std::uint32_t capacity = 0;        // particles the arrays can hold
    std::uint32_t max_neighbours = 0;  // neighbour list entries per particle
    CellGrid grid{};
    int id_bits = 0;                     // bits of the sort key that hold the particle id
    std::uint32_t instrument_sites = 0;  // probes, gauge samples, wall sensors' tiles

    // Per particle: the particle record twice (the current arrays and the incoming ones, which
    // also hold the predicted state between rebuilds), and the working arrays force, dt_max and
    // cell.
    static constexpr std::size_t kWorkingBytes =
        sizeof(Vec4) + sizeof(float) + sizeof(std::uint32_t);
    static constexpr std::size_t kParticleBytes = 2 * kParticleRecordBytes + kWorkingBytes;
    // Sorting happens just before the list is rebuilt, so its scratch (two key buffers, two
    // permutation buffers) lives in the list's memory.
    static constexpr std::size_t kSortScratchBytes = 2 * 8 + 2 * 4;

    std::uint32_t list_stride() const { return capacity; }
    std::size_t list_bytes() const {
        const std::size_t list = std::size_t(capacity) * max_neighbours * sizeof(NeighbourEntry);
        const std::size_t scratch = std::size_t(capacity) * kSortScratchBytes;
        return list > scratch ? list : scratch;
    }
    std::size_t cell_bytes() const { return 2 * sizeof(std::uint32_t) * (grid.cell_count() + 1); }
    // The instruments' sites and their sums (a back end's own scratch for them is its own).
    std::size_t instrument_bytes() const {
        return std::size_t(instrument_sites) * (sizeof(InstrumentSite) + sizeof(SiteSums));
    }
    // Everything but the sort/reduce library's temporary storage.
    std::size_t bytes() const {
        return std::size_t(capacity) * kParticleBytes + list_bytes() + cell_bytes() +
               instrument_bytes();
    }
    // bytes(), array by array (the run report lists them per particle).
    std::vector<MemoryPart> parts() const {
        const std::size_t n = capacity;
        return {{"particle records (current and incoming)", 2 * n * kParticleRecordBytes},
                {"force, dt_max, cell", n * kWorkingBytes},
                {"neighbour list (and the sort's scratch)", list_bytes()},
                {"cell ranges", cell_bytes()},
                {"instruments", instrument_bytes()}};
    }
};

// Bits needed to hold every id below `count`.
int bits_for(std::uint64_t count);

}  // namespace sph
