// The one checked-call macro of the project: every CUDA call and every launch goes through it.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace sph::cuda {

class CudaError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws CudaError naming the failed expression, CUDA's own text and where it happened.
void throw_cuda_error(cudaError_t status, const char* expression, const char* file, int line);

inline void check(cudaError_t status, const char* expression, const char* file, int line) {
    if (status != cudaSuccess) throw_cuda_error(status, expression, file, line);
}

}  // namespace sph::cuda

#define SPH_CUDA_CHECK(expression) ::sph::cuda::check((expression), #expression, __FILE__, __LINE__)
// After a <<<...>>> launch: catches bad configurations at once (execution errors surface at the
// next synchronising call, which is checked too).
#define SPH_CUDA_CHECK_LAUNCH(kernel_name) \
    ::sph::cuda::check(cudaGetLastError(), "launch of " kernel_name, __FILE__, __LINE__)
