#include <cuda_runtime.h>

#include "cuda/cuda_check.h"
#include "devices/cuda/device_memory.h"

namespace sph {

std::atomic<std::size_t> DeviceMemory::in_use_{0};

std::size_t DeviceMemory::bytes_in_use() {
    return in_use_;
}

DeviceMemory::~DeviceMemory() {
    free();
}

// An error of cudaFree is reported by the next checked call.
void DeviceMemory::free() noexcept {
    if (ptr_ != nullptr) cudaFree(ptr_);
    in_use_ -= bytes_;
    ptr_ = nullptr;
    bytes_ = 0;
}

void DeviceMemory::allocate(const std::string& name, std::size_t bytes) {
    free();
    name_ = name;
    const cudaError_t status = cudaMalloc(&ptr_, bytes == 0 ? 1 : bytes);
    if (status != cudaSuccess) {
        ptr_ = nullptr;
        cudaGetLastError();  // clear the sticky-free error state of a failed allocation
        throw cuda::CudaError("cannot allocate device buffer '" + name + "' (" +
                              std::to_string(bytes) + " bytes): " + cudaGetErrorString(status));
    }
    bytes_ = bytes;
    in_use_ += bytes;
}

PinnedMemory::~PinnedMemory() {
    if (ptr_ != nullptr) cudaFreeHost(ptr_);
}

void PinnedMemory::allocate(const std::string& name, std::size_t bytes) {
    if (ptr_ != nullptr) cudaFreeHost(ptr_);
    ptr_ = nullptr;
    const cudaError_t status = cudaMallocHost(&ptr_, bytes == 0 ? 1 : bytes);
    if (status != cudaSuccess) {
        ptr_ = nullptr;
        cudaGetLastError();
        throw cuda::CudaError("cannot allocate pinned host buffer '" + name + "' (" +
                              std::to_string(bytes) + " bytes): " + cudaGetErrorString(status));
    }
}

}  // namespace sph
