// One named cudaMalloc'd block. The name appears in every error about it.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>
#include <utility>

namespace sph {

class DeviceMemory {
public:
    // Bytes held by every DeviceMemory of the process right now.
    static std::size_t bytes_in_use();

    DeviceMemory() = default;
    ~DeviceMemory();  // frees without throwing
    DeviceMemory(DeviceMemory&& other) noexcept { swap(other); }
    DeviceMemory& operator=(DeviceMemory&& other) noexcept {
        swap(other);
        return *this;
    }
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;

    // Frees what was held, then allocates `bytes` on the current device.
    void allocate(const std::string& name, std::size_t bytes);
    template <class T>
    T* as() const {
        return static_cast<T*>(ptr_);
    }
    std::size_t bytes() const { return bytes_; }
    void swap(DeviceMemory& other) noexcept {
        std::swap(ptr_, other.ptr_);
        std::swap(bytes_, other.bytes_);
        std::swap(name_, other.name_);
    }

private:
    void free() noexcept;

    static std::atomic<std::size_t> in_use_;
    void* ptr_ = nullptr;
    std::size_t bytes_ = 0;
    std::string name_;
};

// A byte count in whole MiB, as the messages about device memory give it.
inline std::string mib(std::size_t bytes) {
    return std::to_string(bytes >> 20) + " MiB";
}

// One named block of page-locked host memory (cudaMallocHost), which copies from the device can
// fill without staging and without blocking the host.
class PinnedMemory {
public:
    PinnedMemory() = default;
    ~PinnedMemory();  // frees without throwing
    PinnedMemory(const PinnedMemory&) = delete;
    PinnedMemory& operator=(const PinnedMemory&) = delete;

    // Frees what was held, then allocates `bytes`.
    void allocate(const std::string& name, std::size_t bytes);
    template <class T>
    T* as() const {
        return static_cast<T*>(ptr_);
    }

private:
    void* ptr_ = nullptr;
};

}  // namespace sph
