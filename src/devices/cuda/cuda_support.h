// What the rest of the program may ask about CUDA, whether or not this build has it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace sph {

class Device;

bool cuda_compiled_in();
// GPUs the CUDA runtime sees; 0 when the build has no CUDA or no driver/GPU is present.
int visible_gpu_count();
std::string gpu_name(int gpu_id);
// `edge_stripe`: particles per edge stripe of the Forces stage (0: enough to fill the GPU).
std::unique_ptr<Device> make_cuda_device(int gpu_id, std::uint32_t edge_stripe);
// Bytes the CUDA back end holds in device buffers right now, over all GPUs (0 without CUDA).
std::size_t gpu_bytes_in_use();
// Lets `from_gpu` read and write `to_gpu`'s memory directly (NVLink/PCIe) where the pair allows.
void enable_peer_access(int from_gpu, int to_gpu);

}  // namespace sph
