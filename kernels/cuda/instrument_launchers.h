// CUDA launchers of the instruments' bodies (instruments_body.h), for Device::measure.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cell_grid.h"
#include "instruments_body.h"

namespace sph::cuda {

// Each site's sums per plane (kCellPlanes a site); `cell_sums` holds kCellsAround sums per site
// (site_cell_sums), which are added up in cell order as the CPU adds them.
void site_sums(const InstrumentArgs& args, const InstrumentSite* sites, SiteSums* cell_sums,
               SiteSums* planes, std::uint32_t count, cudaStream_t stream);

// The smallest keys the front needs, kept as order-preserving bit patterns so that atomicMin
// finds them exactly, in any order (the same result as a sequential minimum).
struct FrontMinima {
    std::uint32_t lead;      // the smallest banded key of the particles
    std::uint32_t key;       // the smallest front key examined
    std::uint32_t previous;  // the lead of the measurement before (kept between measurements)
    std::uint32_t search;    // nonzero: the next, wider pass is to run (nothing found yet)
};
// The float a FrontMinima pattern stands for.
float from_ordered(std::uint32_t bits);
// FrontMinima as a device starts (no measurement before).
FrontMinima initial_front_minima();

// The cells that can hold the floor band's particles: every cell across the floor, and along z
// from the band's floor to its top with one cell more on either side, since particles drift off
// the cells they were sorted into until the next rebuild.
struct BandCells {
    int lo[3], count[3];  // per physical axis
    std::uint32_t total;  // count[0] * count[1] * count[2]
};
BandCells band_cells(const CellGrid& grid, const FrontSpec& front);

// Into *minima (instruments_body.h), from the internal particles [args.owned_begin,
// args.owned_end) of the band's cells: the lead, and the front key behind the previous
// measurement's lead; where that finds no key but a lead, behind the new lead; where that finds
// none either, everywhere. Each of these searches gives the exact front when it finds one; the
// device decides whether the wider ones run, so that nothing waits for the host.
void front_minima(const InstrumentArgs& args, const FrontSpec& front, FrontMinima* minima,
                  cudaStream_t stream);

// Testing: a kernel that does nothing for about `microseconds` on `stream`.
void hold(std::uint32_t microseconds, cudaStream_t stream);

}  // namespace sph::cuda
