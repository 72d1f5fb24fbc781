#include "devices/device_layout.h"

#include <algorithm>
#include <cmath>

namespace sph {

int bits_for(std::uint64_t count) {
    int bits = 1;
    while (bits < 64 && (std::uint64_t(1) << bits) < count) ++bits;
    return bits;
}

std::uint32_t expected_list_height(double radius_in_dp, std::uint32_t max_neighbours) {
    const int reach = int(std::floor(radius_in_dp));
    const double radius_sq = radius_in_dp * radius_in_dp;
    std::uint32_t lattice = 0;
    for (int i = -reach; i <= reach; ++i)
        for (int j = -reach; j <= reach; ++j)
            for (int k = -reach; k <= reach; ++k) {
                const double d_sq = double(i * i + j * j + k * k);
                if (d_sq > 0.0 && d_sq < radius_sq) ++lattice;
            }
    return std::min(groups_used(lattice, max_neighbours), list_groups(max_neighbours));
}

std::uint32_t list_height_for(std::uint64_t rows_needed, std::uint32_t capacity,
                              std::uint32_t height) {
    const std::uint64_t warps = std::max<std::uint64_t>(list_warps(capacity), 1);
    const std::uint64_t spared = rows_needed + rows_needed / 20;
    return std::uint32_t(std::max<std::uint64_t>((spared + warps - 1) / warps, height + 1));
}

}  // namespace sph
