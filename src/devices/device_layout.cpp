#include "devices/device_layout.h"

namespace sph {

int bits_for(std::uint64_t count) {
    int bits = 1;
    while (bits < 64 && (std::uint64_t(1) << bits) < count) ++bits;
    return bits;
}

}  // namespace sph
