// What one GPU can do at most, measured the simple way: the bandwidth of a streaming copy and of
// a streaming read of 1 GiB, and the FP32 FMA rate of independent chains in registers. The
// kernels' achieved rates are set against these (bench/one_gpu_table.py --ceiling); the
// vendor's peak figures are not, since no kernel reaches them.
//
//     gpu_ceiling [--gpu N]    prints one JSON object
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "cuda/cuda_check.h"

namespace {

constexpr int kThreads = 256;
constexpr int kRepeats = 20;

__global__ void copy_kernel(const float4* in, float4* out, std::size_t n) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x) {
        out[i] = in[i];
    }
}

// A streaming read; the sum is written only if it is impossible, so the reads are not dropped.
__global__ void read_kernel(const float4* in, std::size_t n, float* sink) {
    float sum = 0.0f;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const float4 v = in[i];
        sum += v.x + v.y + v.z + v.w;
    }
    if (sum == -1.0f) *sink = sum;
}

// 8 independent FMA chains per thread, `rounds` FMAs each.
__global__ void fma_kernel(float seed, int rounds, float* sink) {
    float a[8];
    for (int k = 0; k < 8; ++k) a[k] = seed + float(threadIdx.x + k);
    const float b = 0.999f, c = 1e-3f;
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int k = 0; k < 8; ++k) a[k] = fmaf(a[k], b, c);
    }
    float sum = 0.0f;
    for (int k = 0; k < 8; ++k) sum += a[k];
    if (sum == -1.0f) *sink = sum;
}

// Seconds per launch of `launch`, averaged over kRepeats after one warm-up.
template <class Launch>
double seconds_per(Launch launch) {
    cudaEvent_t start, stop;
    SPH_CUDA_CHECK(cudaEventCreate(&start));
    SPH_CUDA_CHECK(cudaEventCreate(&stop));
    launch();
    SPH_CUDA_CHECK(cudaEventRecord(start));
    for (int r = 0; r < kRepeats; ++r) launch();
    SPH_CUDA_CHECK(cudaEventRecord(stop));
    SPH_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    SPH_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    SPH_CUDA_CHECK(cudaEventDestroy(start));
    SPH_CUDA_CHECK(cudaEventDestroy(stop));
    return 1e-3 * ms / kRepeats;
}

int run(int gpu) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu));
    cudaDeviceProp prop{};
    SPH_CUDA_CHECK(cudaGetDeviceProperties(&prop, gpu));
    const std::size_t bytes = std::size_t(1) << 30, n = bytes / sizeof(float4);
    float4 *in = nullptr, *out = nullptr;
    float* sink = nullptr;
    SPH_CUDA_CHECK(cudaMalloc(&in, bytes));
    SPH_CUDA_CHECK(cudaMalloc(&out, bytes));
    SPH_CUDA_CHECK(cudaMalloc(&sink, sizeof(float)));
    SPH_CUDA_CHECK(cudaMemset(in, 0, bytes));
    const int blocks = prop.multiProcessorCount * 8;
    const double copy = seconds_per([&] {
        copy_kernel<<<blocks, kThreads>>>(in, out, n);
        SPH_CUDA_CHECK_LAUNCH("copy_kernel");
    });
    const double read = seconds_per([&] {
        read_kernel<<<blocks, kThreads>>>(in, n, sink);
        SPH_CUDA_CHECK_LAUNCH("read_kernel");
    });
    constexpr int kRounds = 4096;
    const int fma_blocks = prop.multiProcessorCount * 16;
    const double fma = seconds_per([&] {
        fma_kernel<<<fma_blocks, kThreads>>>(1.0f, kRounds, sink);
        SPH_CUDA_CHECK_LAUNCH("fma_kernel");
    });
    const double flops = 2.0 * 8.0 * kRounds * double(fma_blocks) * kThreads;
    std::printf(
        "{\"device\": \"%s\", \"copy_gb_per_s\": %.1f, \"read_gb_per_s\": %.1f, "
        "\"fma_tflops\": %.2f, \"bytes\": %zu, \"repeats\": %d}\n",
        prop.name, 2.0 * double(bytes) / copy / 1e9, double(bytes) / read / 1e9, flops / fma / 1e12,
        bytes, kRepeats);
    SPH_CUDA_CHECK(cudaFree(in));
    SPH_CUDA_CHECK(cudaFree(out));
    SPH_CUDA_CHECK(cudaFree(sink));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    int gpu = 0;
    for (int a = 1; a < argc; ++a) {
        if (std::strcmp(argv[a], "--gpu") == 0 && a + 1 < argc) {
            gpu = std::atoi(argv[++a]);
        } else {
            std::fprintf(stderr,
                         "gpu_ceiling: unknown argument '%s' (usage: gpu_ceiling [--gpu N])\n",
                         argv[a]);
            return 2;
        }
    }
    try {
        return run(gpu);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpu_ceiling: %s\n", e.what());
        return 1;
    }
}
