#include "devices/transport.h"

#include <cstring>

namespace sph {

void HostTransport::copy(Endpoint dst, Endpoint src, std::size_t bytes) {
    if (bytes > 0) std::memcpy(dst.ptr, src.ptr, bytes);
}

}  // namespace sph
