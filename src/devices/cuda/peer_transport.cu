#include "devices/cuda/peer_transport.h"

#include "cuda/cuda_check.h"

namespace sph {

void PeerTransport::copy_async(Endpoint dst, Endpoint src, std::size_t bytes, cudaStream_t stream) {
    if (bytes == 0) return;
    if (dst.gpu >= 0 && src.gpu >= 0) {
        SPH_CUDA_CHECK(cudaMemcpyPeerAsync(dst.ptr, dst.gpu, src.ptr, src.gpu, bytes, stream));
    } else {
        SPH_CUDA_CHECK(cudaMemcpyAsync(dst.ptr, src.ptr, bytes, cudaMemcpyDefault, stream));
    }
}

void* PeerTransport::allocate_host(std::size_t bytes) {
    void* memory = nullptr;
    SPH_CUDA_CHECK(cudaMallocHost(&memory, bytes));
    return memory;
}

void PeerTransport::free_host(void* memory) {
    cudaFreeHost(memory);  // in a destructor: a failure here has nothing left to stop
}

// On the calling thread's current GPU's legacy stream, then waited for: the device streams are
// non-blocking, so ordering with kernels comes from the callers' synchronisation at the barriers.
void PeerTransport::copy(Endpoint dst, Endpoint src, std::size_t bytes) {
    start_copy(dst, src, bytes);
    finish_copies();
}

void PeerTransport::start_copy(Endpoint dst, Endpoint src, std::size_t bytes) {
    copy_async(dst, src, bytes, 0);
}

void PeerTransport::finish_copies() {
    SPH_CUDA_CHECK(cudaStreamSynchronize(0));
}

}  // namespace sph
