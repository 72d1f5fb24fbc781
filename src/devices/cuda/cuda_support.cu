// What the rest of the program may ask about CUDA (cuda_support.h), in a build that has it.
#include <cuda_runtime.h>

#include <stdexcept>

#include "cuda/cuda_check.h"
#include "devices/cuda/cuda_device.h"
#include "devices/cuda/cuda_support.h"
#include "devices/cuda/device_memory.h"

namespace sph {

bool cuda_compiled_in() {
    return true;
}

int visible_gpu_count() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();  // no driver or no GPU: not an error for the caller
        return 0;
    }
    return count;
}

std::string gpu_name(int gpu_id) {
    cudaDeviceProp prop{};
    SPH_CUDA_CHECK(cudaGetDeviceProperties(&prop, gpu_id));
    return prop.name;
}

std::unique_ptr<Device> make_cuda_device(int gpu_id, std::uint32_t edge_stripe) {
    const int count = visible_gpu_count();
    if (gpu_id < 0 || gpu_id >= count) {
        throw std::runtime_error("GPU " + std::to_string(gpu_id) + " does not exist (" +
                                 std::to_string(count) + " visible)");
    }
    return std::make_unique<CudaDevice>(gpu_id, edge_stripe);
}

void enable_peer_access(int from_gpu, int to_gpu) {
    if (from_gpu == to_gpu) return;
    int possible = 0;
    SPH_CUDA_CHECK(cudaDeviceCanAccessPeer(&possible, from_gpu, to_gpu));
    if (!possible) return;  // copies are then staged by the driver
    SPH_CUDA_CHECK(cudaSetDevice(from_gpu));
    const cudaError_t status = cudaDeviceEnablePeerAccess(to_gpu, 0);
    if (status == cudaErrorPeerAccessAlreadyEnabled) {
        cudaGetLastError();
        return;
    }
    SPH_CUDA_CHECK(status);
}
std::size_t gpu_bytes_in_use() {
    return DeviceMemory::bytes_in_use();
}

}  // namespace sph
