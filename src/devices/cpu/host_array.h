// The arrays of a CPU device: std::vector with an allocator that counts the bytes it holds, so
// that the memory a device reports can be checked against what it really allocated.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

namespace sph {

// Bytes held by every HostArray of the process right now.
inline std::atomic<std::size_t> host_array_bytes{0};

template <class T>
struct CountingAllocator {
    using value_type = T;
    CountingAllocator() = default;
    template <class U>
    CountingAllocator(const CountingAllocator<U>&) {}

    T* allocate(std::size_t n) {
        T* p = std::allocator<T>{}.allocate(n);
        host_array_bytes += n * sizeof(T);
        return p;
    }
    void deallocate(T* p, std::size_t n) {
        host_array_bytes -= n * sizeof(T);
        std::allocator<T>{}.deallocate(p, n);
    }
    template <class U>
    bool operator==(const CountingAllocator<U>&) const {
        return true;
    }
    template <class U>
    bool operator!=(const CountingAllocator<U>&) const {
        return false;
    }
};

template <class T>
using HostArray = std::vector<T, CountingAllocator<T>>;

}  // namespace sph
