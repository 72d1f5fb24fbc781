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
    // Starts such a copy, done once finish_copies() has returned: a GPU queues several and waits
    // once, instead of once per copy.
    virtual void start_copy(Endpoint dst, Endpoint src, std::size_t bytes) {
        copy(dst, src, bytes);
    }
    virtual void finish_copies() {}
    // Host memory for staging a device's messages to other ranks, which this transport copies to
    // and from at full speed (page-locked for a GPU, whose copies then also run asynchronously).
    virtual void* allocate_host(std::size_t bytes) { return ::operator new(bytes); }
    virtual void free_host(void* memory) { ::operator delete(memory); }
};

// A host buffer from a transport's allocate_host that grows as needed.
class HostStaging {
public:
    HostStaging() = default;
    ~HostStaging() { release(); }
    HostStaging(HostStaging&& other) noexcept { swap(other); }
    HostStaging& operator=(HostStaging&& other) noexcept {
        swap(other);
        return *this;
    }
    HostStaging(const HostStaging&) = delete;
    HostStaging& operator=(const HostStaging&) = delete;

    // At least `bytes`, from `transport` (what it held is not kept when it grows); none for 0.
    char* reserve(Transport& transport, std::size_t bytes);
    char* data() const { return data_; }
    Endpoint endpoint() const { return Endpoint{Endpoint::kHostMemory, data_}; }

private:
    void release();
    void swap(HostStaging& other) noexcept;
    Transport* transport_ = nullptr;
    char* data_ = nullptr;
    std::size_t capacity_ = 0;
};

// CPU devices share the host's memory.
class HostTransport final : public Transport {
public:
    void copy(Endpoint dst, Endpoint src, std::size_t bytes) override;
};

}  // namespace sph
