#include "devices/transport.h"

#include <cstring>
#include <utility>

namespace sph {

// Grows with room to spare: the edge bands change a little at every rebuild, and page-locked
// memory is slow to allocate.
char* HostStaging::reserve(Transport& transport, std::size_t bytes) {
    if (bytes == 0 || (bytes <= capacity_ && &transport == transport_)) return data_;
    release();
    const std::size_t room = bytes + bytes / 4;
    data_ = static_cast<char*>(transport.allocate_host(room));
    transport_ = &transport;
    capacity_ = room;
    return data_;
}

void HostStaging::release() {
    if (data_ != nullptr) transport_->free_host(data_);
    data_ = nullptr;
    capacity_ = 0;
}

void HostStaging::swap(HostStaging& other) noexcept {
    std::swap(transport_, other.transport_);
    std::swap(data_, other.data_);
    std::swap(capacity_, other.capacity_);
}

void HostTransport::copy(Endpoint dst, Endpoint src, std::size_t bytes) {
    if (bytes > 0) std::memcpy(dst.ptr, src.ptr, bytes);
}

}  // namespace sph
