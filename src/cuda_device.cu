#include "cuda_device.h"

#include <algorithm>
#include <stdexcept>

#include "cuda/cuda_check.h"
#include "cuda/cuda_launchers.h"
#include "cuda_support.h"

namespace sph {

namespace {

std::string mib(std::size_t bytes) {
    return std::to_string(bytes >> 20) + " MiB";
}

// Scalars the host reads back: the dt minimum, the largest neighbour count, the last cell.
struct Scalars {
    float minimum_dt;
    std::uint32_t largest_count;
    std::uint32_t last_cell;
};

}  // namespace

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

std::unique_ptr<Device> make_cuda_device(int gpu_id) {
    const int count = visible_gpu_count();
    if (gpu_id < 0 || gpu_id >= count) {
        throw std::runtime_error("GPU " + std::to_string(gpu_id) + " does not exist (" +
                                 std::to_string(count) + " visible)");
    }
    return std::make_unique<CudaDevice>(gpu_id);
}

CudaDevice::CudaDevice(int gpu_id) : gpu_(gpu_id) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    SPH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

CudaDevice::~CudaDevice() {
    cudaSetDevice(gpu_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
}

std::string CudaDevice::description() const {
    return "GPU " + std::to_string(gpu_) + " (" + gpu_name(gpu_) + ")";
}

std::size_t CudaDevice::temp_bytes(std::uint32_t capacity) const {
    return std::max(cuda::sort_temp_bytes(capacity), cuda::minimum_temp_bytes(capacity));
}

std::size_t CudaDevice::bytes_needed(const DeviceLayout& layout) const {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    return layout.bytes() + temp_bytes(layout.capacity) + sizeof(Scalars);
}

void CudaDevice::allocate(const DeviceLayout& layout, const SphParams& params) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    const std::size_t needed = bytes_needed(layout);
    std::size_t free_bytes = 0, total_bytes = 0;
    SPH_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (needed > free_bytes) {
        throw std::runtime_error("the run needs " + mib(needed) + " on " + description() +
                                 " but only " + mib(free_bytes) + " of " + mib(total_bytes) +
                                 " are free; use a larger --dp");
    }
    layout_ = layout;
    params_ = params;
    const std::size_t n = layout.capacity;
    pos_.allocate("pos", n * sizeof(Vec4));
    velrho_.allocate("velrho", n * sizeof(Vec4));
    pos_pred_.allocate("pos_pred", n * sizeof(Vec4));
    velrho_pred_.allocate("velrho_pred", n * sizeof(Vec4));
    force_.allocate("force", n * sizeof(Vec4));
    dt_max_.allocate("dt_max", n * sizeof(float));
    id_.allocate("id", n * sizeof(std::uint32_t));
    cell_.allocate("cell", n * sizeof(std::uint32_t));
    type_.allocate("type", n * sizeof(std::uint8_t));
    cell_start_.allocate("cell_start", (layout.grid.cell_count() + 1) * sizeof(std::uint32_t));
    cell_end_.allocate("cell_end", (layout.grid.cell_count() + 1) * sizeof(std::uint32_t));
    list_.allocate("neighbour_list", layout.list_bytes());
    temp_.allocate("cub_temp", temp_bytes(layout.capacity));
    scalars_.allocate("scalars", sizeof(Scalars));
}

CudaDevice::SortScratch CudaDevice::sort_scratch() const {
    const std::size_t n = layout_.capacity;
    char* base = list_.as<char>();
    SortScratch s;
    s.keys[0] = reinterpret_cast<std::uint64_t*>(base);
    s.keys[1] = reinterpret_cast<std::uint64_t*>(base + 8 * n);
    s.permutation[0] = reinterpret_cast<std::uint32_t*>(base + 16 * n);
    s.permutation[1] = reinterpret_cast<std::uint32_t*>(base + 20 * n);
    s.id = reinterpret_cast<std::uint32_t*>(base + 24 * n);
    s.type = reinterpret_cast<std::uint8_t*>(base + 28 * n);
    return s;
}

void CudaDevice::upload(const HostParticles& particles) {
    if (particles.size() > layout_.capacity) {
        throw std::logic_error("CudaDevice::upload: more particles than the allocated capacity");
    }
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    count_ = static_cast<std::uint32_t>(particles.size());
    SPH_CUDA_CHECK(cudaMemcpy(pos_.as<Vec4>(), particles.pos.data(), count_ * sizeof(Vec4),
                              cudaMemcpyHostToDevice));
    SPH_CUDA_CHECK(cudaMemcpy(velrho_.as<Vec4>(), particles.velrho.data(), count_ * sizeof(Vec4),
                              cudaMemcpyHostToDevice));
    SPH_CUDA_CHECK(cudaMemcpy(id_.as<std::uint32_t>(), particles.id.data(), count_ * 4,
                              cudaMemcpyHostToDevice));
    SPH_CUDA_CHECK(cudaMemcpy(type_.as<std::uint8_t>(), particles.type.data(), count_,
                              cudaMemcpyHostToDevice));
}

void CudaDevice::download(HostParticles& particles) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    particles.resize(count_);
    SPH_CUDA_CHECK(cudaMemcpy(particles.pos.data(), pos_.as<Vec4>(), count_ * sizeof(Vec4),
                              cudaMemcpyDeviceToHost));
    SPH_CUDA_CHECK(cudaMemcpy(particles.velrho.data(), velrho_.as<Vec4>(), count_ * sizeof(Vec4),
                              cudaMemcpyDeviceToHost));
    SPH_CUDA_CHECK(cudaMemcpy(particles.id.data(), id_.as<std::uint32_t>(), count_ * 4,
                              cudaMemcpyDeviceToHost));
    SPH_CUDA_CHECK(cudaMemcpy(particles.type.data(), type_.as<std::uint8_t>(), count_,
                              cudaMemcpyDeviceToHost));
}

NeighbourBuild CudaDevice::build_neighbours() {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    NeighbourBuild result;
    if (count_ == 0) return result;
    timer_.begin(stream_);
    SortScratch s = sort_scratch();
    cuda::hash(HashArgs{pos_.as<Vec4>(), id_.as<std::uint32_t>(), s.keys[0], s.permutation[0],
                        layout_.grid, layout_.id_bits},
               count_, stream_);
    int current = 0;
    const int key_bits = layout_.id_bits + bits_for(std::uint64_t(layout_.grid.cell_count()) + 1);
    cuda::sort_by_key(s.keys, s.permutation, current, count_, key_bits, temp_.as<void>(),
                      temp_.bytes(), stream_);
    cuda::gather(GatherArgs{s.permutation[current], pos_.as<Vec4>(), velrho_.as<Vec4>(),
                            id_.as<std::uint32_t>(), type_.as<std::uint8_t>(), pos_pred_.as<Vec4>(),
                            velrho_pred_.as<Vec4>(), s.id, s.type},
                 count_, stream_);
    pos_.swap(pos_pred_);
    velrho_.swap(velrho_pred_);
    SPH_CUDA_CHECK(cudaMemcpyAsync(id_.as<std::uint32_t>(), s.id, count_ * 4,
                                   cudaMemcpyDeviceToDevice, stream_));
    SPH_CUDA_CHECK(cudaMemcpyAsync(type_.as<std::uint8_t>(), s.type, count_,
                                   cudaMemcpyDeviceToDevice, stream_));
    SPH_CUDA_CHECK(cudaMemsetAsync(cell_start_.as<void>(), 0xFF, cell_start_.bytes(), stream_));
    cuda::find_cell_ranges(
        CellRangeArgs{s.keys[current], cell_.as<std::uint32_t>(), cell_start_.as<std::uint32_t>(),
                      cell_end_.as<std::uint32_t>(), count_, layout_.grid.outside_cell(),
                      layout_.id_bits},
        stream_);
    Scalars* d_scalars = scalars_.as<Scalars>();
    SPH_CUDA_CHECK(cudaMemcpyAsync(&d_scalars->last_cell, cell_.as<std::uint32_t>() + count_ - 1, 4,
                                   cudaMemcpyDeviceToDevice, stream_));
    SPH_CUDA_CHECK(cudaMemsetAsync(&d_scalars->largest_count, 0, 4, stream_));
    const NeighbourArgs args{pos_.as<Vec4>(),
                             cell_.as<std::uint32_t>(),
                             cell_start_.as<std::uint32_t>(),
                             cell_end_.as<std::uint32_t>(),
                             list_.as<NeighbourEntry>(),
                             layout_.list_stride(),
                             layout_.max_neighbours,
                             params_.list_radius_sq,
                             layout_.grid};
    // Particles outside the grid sort last and get no list entries (their cell is outside), so
    // the list is built for the ones inside; the driver stops the run if any are outside.
    cuda::build_neighbour_lists(args, 0, count_, &d_scalars->largest_count, stream_);
    timer_.end(stream_, &KernelTimes::build_neibs);
    Scalars h{};
    SPH_CUDA_CHECK(
        cudaMemcpyAsync(&h, d_scalars, sizeof(Scalars), cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    result.particles_outside_grid = h.last_cell == layout_.grid.outside_cell();
    result.largest_count = h.largest_count;
    return result;
}

void CudaDevice::forces(Stage stage) {
    const bool predicted = stage == Stage::kCorrector;
    const ForcesArgs args{predicted ? pos_pred_.as<Vec4>() : pos_.as<Vec4>(),
                          predicted ? velrho_pred_.as<Vec4>() : velrho_.as<Vec4>(),
                          type_.as<std::uint8_t>(),
                          cell_.as<std::uint32_t>(),
                          cell_start_.as<std::uint32_t>(),
                          list_.as<NeighbourEntry>(),
                          force_.as<Vec4>(),
                          dt_max_.as<float>(),
                          layout_.list_stride(),
                          layout_.max_neighbours,
                          layout_.grid,
                          params_};
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    timer_.begin(stream_);
    cuda::forces(args, 0, count_, stream_);
    timer_.end(stream_, &KernelTimes::forces);
}

float CudaDevice::minimum_dt() {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    Scalars* d_scalars = scalars_.as<Scalars>();
    timer_.begin(stream_);
    cuda::minimum_dt(dt_max_.as<float>(), 0, count_, &d_scalars->minimum_dt, temp_.as<void>(),
                     temp_.bytes(), stream_);
    timer_.end(stream_, &KernelTimes::minimum_scan);
    float dt = 0.0f;
    SPH_CUDA_CHECK(cudaMemcpyAsync(&dt, &d_scalars->minimum_dt, sizeof(float),
                                   cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    timer_.collect(times_);  // everything before is done: reading the events costs nothing
    return dt;
}

EulerArgs CudaDevice::euler_args(float dt) const {
    return EulerArgs{pos_.as<Vec4>(),
                     velrho_.as<Vec4>(),
                     pos_pred_.as<Vec4>(),
                     velrho_pred_.as<Vec4>(),
                     force_.as<Vec4>(),
                     type_.as<std::uint8_t>(),
                     dt,
                     params_.rho0};
}

void CudaDevice::euler(Stage stage, float dt) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    timer_.begin(stream_);
    if (stage == Stage::kPredictor) {
        cuda::euler_predictor(euler_args(dt), 0, count_, stream_);
    } else {
        cuda::euler_corrector(euler_args(dt), 0, count_, stream_);
    }
    timer_.end(stream_, &KernelTimes::euler);
}

KernelTimes CudaDevice::kernel_times() {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    timer_.collect(times_);
    return times_;
}

std::size_t CudaDevice::bytes_allocated() const {
    std::size_t total = 0;
    for (const DeviceMemory* m :
         {&pos_, &velrho_, &pos_pred_, &velrho_pred_, &force_, &dt_max_, &id_, &cell_, &type_,
          &cell_start_, &cell_end_, &list_, &temp_, &scalars_}) {
        total += m->bytes();
    }
    return total;
}

}  // namespace sph
