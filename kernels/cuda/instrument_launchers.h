// CUDA launchers of the instruments' bodies (instruments_body.h), for Device::measure.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cell_grid.h"
#include "instruments_body.h"

namespace sph::cuda {

// Each site's sums per plane (kCellPlanes a site, into `planes`): a warp a site, a lane a cell
// around it (site_cell_sums), the cells' sums added up in cell order within each plane as the CPU
// adds them (add_cell_sums). One kernel: a measurement launches it twice (the walls' tiles, then
// the points), and its launches are on the host's path between two steps.
void site_sums(const InstrumentArgs& args, const InstrumentSite* sites, SiteSums* planes,
               std::uint32_t count, cudaStream_t stream);

// A measurement's front minima, kept as order-preserving bit patterns so that atomicMin finds
// them exactly, in any order (the same result as a sequential minimum).
struct FrontMinima {
    std::uint32_t lead;      // the smallest banded key of the particles
    std::uint32_t previous;  // the lead the next measurement searches behind first: this one's,
                             // or where it found none the one it searched behind itself
    std::uint32_t key[3];    // the smallest front key each pass found (front_minima)
};
// Measurements take turns at two FrontMinima: one reads the other's lead and fills its own,
// which the measurement before cleared, so that no kernel of its own clears them or decides
// between the passes, and the host launches three kernels a measurement.
struct FrontState {
    FrontMinima slot[2];
};
// The front key a measurement found (+infinity: none), from its FrontMinima.
float found_front_key(const FrontMinima& minima);
// FrontState as a device starts (no measurement before).
FrontState initial_front_state();

// The cells that can hold the floor band's particles: every cell across the floor, and along z
// from the band's floor to its top with one cell more on either side, since particles drift off
// the cells they were sorted into until the next rebuild.
struct BandCells {
    int lo[3], count[3];  // per physical axis
    std::uint32_t total;  // count[0] * count[1] * count[2]
};
BandCells band_cells(const CellGrid& grid, const FrontSpec& front);

// Into state->slot[slot], the other slot holding the measurement before's (instruments_body.h),
// from the internal particles [args.owned_begin, args.owned_end) of the band's cells: the lead,
// and the front key behind the previous measurement's lead; where that finds no key but a lead,
// behind the new lead; where that finds none either, everywhere. Each of these searches gives
// the exact front when it finds one; the device decides whether the wider ones run, so that
// nothing waits for the host. The other slot is cleared for the next measurement.
void front_minima(const InstrumentArgs& args, const FrontSpec& front, FrontState* state, int slot,
                  cudaStream_t stream);

// Testing: a kernel that does nothing for about `microseconds` on `stream`.
void hold(std::uint32_t microseconds, cudaStream_t stream);

}  // namespace sph::cuda
