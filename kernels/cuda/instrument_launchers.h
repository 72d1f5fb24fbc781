// CUDA launchers of the instruments' bodies (instruments_body.h), for Device::measure.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

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
};
// The float a FrontMinima pattern stands for.
float from_ordered(std::uint32_t bits);
// FrontMinima as a device starts (no measurement before).
FrontMinima initial_front_minima();

// How far behind which lead front_minima examines particles' neighbours (instruments_body.h: any
// limit gives the exact front whenever a qualifying particle lies within it).
enum class FrontPass {
    kPreviousSlab,  // behind the previous measurement's lead, finding the lead as well: one pass
    kSlab,          // behind the lead the first pass found
    kEverywhere,
};

// Into *minima (key; lead too in the first pass), from the particles [begin, end).
void front_minima(const InstrumentArgs& args, const FrontSpec& front, FrontPass pass,
                  FrontMinima* minima, std::uint32_t begin, std::uint32_t end, cudaStream_t stream);

}  // namespace sph::cuda
