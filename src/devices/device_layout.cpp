#include "devices/device_layout.h"

#include <algorithm>
#include <cmath>

namespace sph {

int bits_for(std::uint64_t count) {
    int bits = 1;
    while (bits < 64 && (std::uint64_t(1) << bits) < count) ++bits;
    return bits;
}

double expected_list_height(double radius_in_dp, std::uint32_t max_neighbours, double fluid_share) {
    const int reach = int(std::floor(radius_in_dp));
    const double radius_sq = radius_in_dp * radius_in_dp;
    std::uint32_t lattice = 0, above = 0;  // all the lattice points near, those a layer up or more
    for (int i = -reach; i <= reach; ++i)
        for (int j = -reach; j <= reach; ++j)
            for (int k = -reach; k <= reach; ++k) {
                const double d_sq = double(i * i + j * j + k * k);
                if (d_sq > 0.0 && d_sq < radius_sq) {
                    ++lattice;
                    if (k >= 1) ++above;
                }
            }
    const auto groups = [&](std::uint32_t count) {
        return double(std::min(groups_used(count, max_neighbours), list_groups(max_neighbours)));
    };
    return fluid_share * groups(lattice) + (1.0 - fluid_share) * groups(above);
}

double list_height_for(std::uint64_t rows_needed, std::uint32_t capacity, double height) {
    const double warps = double(std::max<std::uint64_t>(list_warps(capacity), 1));
    return std::max(1.05 * double(rows_needed) / warps, 1.05 * height);
}

}  // namespace sph
