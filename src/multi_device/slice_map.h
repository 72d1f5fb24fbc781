// Which device owns which slices of the cell grid (docs/design.md: paper section 3.1).
//
// A slice is one cell thick, normal to the split axis; with the split axis most significant in the
// cell index, slices [first, last) of a device are one contiguous range of cells and therefore of
// the sorted particles. Devices are chained in slice order: device d's neighbours are d - 1, d + 1.
//
// Each device holds copies of its neighbours' `halo` nearest slices (its external slices), and
// owns at least that many. One slice covers the neighbour list's reach; mDBC's ghost nodes reach
// further (driver/run_setup.h: halo_slices).
#pragma once

#include <cstdint>
#include <vector>

#include "cell_grid.h"

namespace sph {

class SliceMap {
public:
    // first_slice[d] is device d's first slice; device d owns [first_slice[d], first_slice[d + 1]),
    // the last device up to slice_count. Every device owns at least `halo` slices.
    SliceMap(std::vector<int> first_slice, int slice_count, int halo = 1);

    // Splits slice_count slices among `devices` so that each gets about the same share of the
    // work counted per slice in `work_per_slice` (particles, or particles weighted by what they
    // cost), and at least `halo` slices.
    static SliceMap balanced(const std::vector<std::uint64_t>& work_per_slice, int devices,
                             int halo = 1);

    int devices() const { return static_cast<int>(first_.size()); }
    int slice_count() const { return slice_count_; }
    int halo() const { return halo_; }
    int first_slice(int device) const { return first_[device]; }
    int end_slice(int device) const;  // one past the last slice owned
    int owner(int slice) const;
    // Cell bounds: device d owns cells [bounds[d], bounds[d + 1]); bounds.back() = cell count.
    std::vector<std::uint32_t> cell_bounds(const CellGrid& grid) const;

private:
    std::vector<int> first_;
    int slice_count_;
    int halo_;
};

}  // namespace sph
