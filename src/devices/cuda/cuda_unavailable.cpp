// Stand-ins for cuda_support.h in a build without the CUDA toolkit.
#include <stdexcept>

#include "devices/cuda/cuda_support.h"
#include "devices/device.h"

namespace sph {

bool cuda_compiled_in() {
    return false;
}
int visible_gpu_count() {
    return 0;
}
std::string gpu_name(int) {
    return "none";
}
void enable_peer_access(int, int) {}
std::size_t gpu_bytes_in_use() {
    return 0;
}
std::unique_ptr<Device> make_cuda_device(int, std::uint32_t) {
    throw std::runtime_error(
        "this build has no CUDA back end (nvcc was not found at configure time)");
}

}  // namespace sph
