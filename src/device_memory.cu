#include <cuda_runtime.h>

#include "cuda/cuda_check.h"
#include "device_memory.h"

namespace sph {

DeviceMemory::~DeviceMemory() {
    if (ptr_ != nullptr) cudaFree(ptr_);  // an error here is reported by the next checked call
}

void DeviceMemory::allocate(const std::string& name, std::size_t bytes) {
    if (ptr_ != nullptr) cudaFree(ptr_);
    ptr_ = nullptr;
    bytes_ = 0;
    name_ = name;
    const cudaError_t status = cudaMalloc(&ptr_, bytes == 0 ? 1 : bytes);
    if (status != cudaSuccess) {
        ptr_ = nullptr;
        cudaGetLastError();  // clear the sticky-free error state of a failed allocation
        throw cuda::CudaError("cannot allocate device buffer '" + name + "' (" +
                              std::to_string(bytes) + " bytes): " + cudaGetErrorString(status));
    }
    bytes_ = bytes;
}

}  // namespace sph
