// Moves bytes between devices. The exchange code names only endpoints and sizes, so a transport
// can be a plain copy (CPU devices), a peer copy between GPUs of one process, or (later) MPI.
#pragma once

#include <cstddef>

namespace sph {

// A place in some device's memory: `gpu` is the CUDA device id, or kHostMemory.
struct Endpoint {
    static constexpr int kHostMemory = -1;
    int gpu = kHostMemory;
    void* ptr = nullptr;

    Endpoint offset(std::size_t bytes) const {
        return Endpoint{gpu, static_cast<char*>(ptr) + bytes};
    }
};

class Transport {
public:
    virtual ~Transport() = default;
    // Copies `bytes` from src to dst; done when it returns.
    virtual void copy(Endpoint dst, Endpoint src, std::size_t bytes) = 0;
};

// CPU devices share the host's memory.
class HostTransport final : public Transport {
public:
    void copy(Endpoint dst, Endpoint src, std::size_t bytes) override;
};

}  // namespace sph
