// Which device owns which slices of the cell grid (docs/design.md: paper section 3.1).
//
// A slice is one cell thick, normal to the split axis; with the split axis most significant in the
// cell index, slices [first, last) of a device are one contiguous range of cells and therefore of
// the sorted particles. Devices are chained in slice order: device d's neighbours are d - 1, d + 1.
#pragma once

#include <cstdint>
#include <vector>

#include "cell_grid.h"

namespace sph {

class SliceMap {
public:
    // first_slice[d] is device d's first slice; device d owns [first_slice[d], first_slice[d + 1]),
    // the last device up to slice_count. Every device owns at least one slice.
    SliceMap(std::vector<int> first_slice, int slice_count);

    // Splits slice_count slices among `devices` so that each holds about the same number of the
    // particles counted per slice in `particles_per_slice`.
    static SliceMap balanced(const std::vector<std::uint64_t>& particles_per_slice, int devices);

    int devices() const { return static_cast<int>(first_.size()); }
    int slice_count() const { return slice_count_; }
    int first_slice(int device) const { return first_[device]; }
    int end_slice(int device) const;  // one past the last slice owned
    int owner(int slice) const;
    // Cell bounds: device d owns cells [bounds[d], bounds[d + 1]); bounds.back() = cell count.
    std::vector<std::uint32_t> cell_bounds(const CellGrid& grid) const;

private:
    std::vector<int> first_;
    int slice_count_;
};

}  // namespace sph
