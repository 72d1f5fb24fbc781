// Copies between GPUs of this process (NVLink or PCIe, as the driver routes it) and the host.
#pragma once

#include <cuda_runtime.h>

#include "devices/transport.h"

namespace sph {

class PeerTransport final : public Transport {
public:
    void copy(Endpoint dst, Endpoint src, std::size_t bytes) override;
    void start_copy(Endpoint dst, Endpoint src, std::size_t bytes) override;
    void finish_copies() override;
    void* allocate_host(std::size_t bytes) override;  // page-locked
    void free_host(void* memory) override;
    // Queues the copy on `stream` (of the source's GPU) and returns.
    static void copy_async(Endpoint dst, Endpoint src, std::size_t bytes, cudaStream_t stream);
};

}  // namespace sph
