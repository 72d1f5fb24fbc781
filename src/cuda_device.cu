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

// Scalars the host reads back: the dt minimum and the largest neighbour count.
struct Scalars {
    float minimum_dt;
    std::uint32_t largest_count;
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

std::unique_ptr<Device> make_cuda_device(int gpu_id, std::uint32_t edge_stripe) {
    const int count = visible_gpu_count();
    if (gpu_id < 0 || gpu_id >= count) {
        throw std::runtime_error("GPU " + std::to_string(gpu_id) + " does not exist (" +
                                 std::to_string(count) + " visible)");
    }
    return std::make_unique<CudaDevice>(gpu_id, edge_stripe);
}

void enable_peer_access(int from_gpu, int to_gpu) {
    if (from_gpu == to_gpu) return;
    int possible = 0;
    SPH_CUDA_CHECK(cudaDeviceCanAccessPeer(&possible, from_gpu, to_gpu));
    if (!possible) return;  // copies are then staged by the driver
    SPH_CUDA_CHECK(cudaSetDevice(from_gpu));
    const cudaError_t status = cudaDeviceEnablePeerAccess(to_gpu, 0);
    if (status == cudaErrorPeerAccessAlreadyEnabled) {
        cudaGetLastError();
        return;
    }
    SPH_CUDA_CHECK(status);
}

CudaDevice::CudaDevice(int gpu_id, std::uint32_t edge_stripe) : gpu_(gpu_id) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    SPH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    // The edge stripes go first: their blocks are scheduled before the central stripe's.
    int least = 0, greatest = 0;
    SPH_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    for (cudaStream_t& s : edge_stream_) {
        SPH_CUDA_CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest));
    }
    int sms = 0, threads_per_sm = 0;
    SPH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu_));
    SPH_CUDA_CHECK(
        cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, gpu_));
    stripe_fill_ = edge_stripe > 0 ? edge_stripe
                                   : static_cast<std::uint32_t>(sms) *
                                         static_cast<std::uint32_t>(threads_per_sm);
    for (cudaEvent_t* e :
         {&events_.begin, &events_.central_done, &events_.end, &events_.edge_done[0],
          &events_.edge_done[1], &events_.send_begin[0], &events_.send_begin[1],
          &events_.send_end[0], &events_.send_end[1], &trace_clock_.origin}) {
        SPH_CUDA_CHECK(cudaEventCreate(e));
    }
    SPH_CUDA_CHECK(cudaEventCreateWithFlags(&marker_, cudaEventDisableTiming));
}

CudaDevice::~CudaDevice() {
    cudaSetDevice(gpu_);
    for (cudaEvent_t e : {events_.begin, events_.central_done, events_.end, events_.edge_done[0],
                          events_.edge_done[1], events_.send_begin[0], events_.send_begin[1],
                          events_.send_end[0], events_.send_end[1], trace_clock_.origin, marker_}) {
        if (e != nullptr) cudaEventDestroy(e);
    }
    for (cudaStream_t s : {stream_, edge_stream_[0], edge_stream_[1]}) {
        if (s != nullptr) cudaStreamDestroy(s);
    }
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

Device::MemoryPool CudaDevice::memory_pool() const {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    std::size_t free_bytes = 0, total_bytes = 0;
    SPH_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    return MemoryPool{gpu_, free_bytes};
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
    id_scratch_.allocate("id_incoming", n * sizeof(std::uint32_t));
    type_scratch_.allocate("type_incoming", n * sizeof(std::uint8_t));
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
    return s;
}

void CudaDevice::upload(const HostParticles& particles) {
    if (particles.size() > layout_.capacity) {
        throw std::logic_error("CudaDevice::upload: more particles than the allocated capacity");
    }
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    const std::uint32_t count = static_cast<std::uint32_t>(particles.size());
    local_ = LocalLayout{0, count, 0};
    SPH_CUDA_CHECK(cudaMemcpy(pos_.as<Vec4>(), particles.pos.data(), count * sizeof(Vec4),
                              cudaMemcpyHostToDevice));
    SPH_CUDA_CHECK(cudaMemcpy(velrho_.as<Vec4>(), particles.velrho.data(), count * sizeof(Vec4),
                              cudaMemcpyHostToDevice));
    SPH_CUDA_CHECK(cudaMemcpy(id_.as<std::uint32_t>(), particles.id.data(), count * 4,
                              cudaMemcpyHostToDevice));
    SPH_CUDA_CHECK(
        cudaMemcpy(type_.as<std::uint8_t>(), particles.type.data(), count, cudaMemcpyHostToDevice));
}

void CudaDevice::download(HostParticles& particles) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    const std::size_t first = local_.left, n = local_.internal;
    particles.resize(n);
    SPH_CUDA_CHECK(cudaMemcpy(particles.pos.data(), pos_.as<Vec4>() + first, n * sizeof(Vec4),
                              cudaMemcpyDeviceToHost));
    SPH_CUDA_CHECK(cudaMemcpy(particles.velrho.data(), velrho_.as<Vec4>() + first, n * sizeof(Vec4),
                              cudaMemcpyDeviceToHost));
    SPH_CUDA_CHECK(cudaMemcpy(particles.id.data(), id_.as<std::uint32_t>() + first, n * 4,
                              cudaMemcpyDeviceToHost));
    SPH_CUDA_CHECK(cudaMemcpy(particles.type.data(), type_.as<std::uint8_t>() + first, n,
                              cudaMemcpyDeviceToHost));
}

void CudaDevice::sort(std::uint32_t begin, std::uint32_t count) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    local_ = LocalLayout{0, count, 0};
    if (count == 0) return;
    timer_.begin(stream_);
    SortScratch s = sort_scratch();
    cuda::hash(HashArgs{pos_.as<Vec4>() + begin, id_.as<std::uint32_t>() + begin, s.keys[0],
                        s.permutation[0], layout_.grid, layout_.id_bits},
               count, stream_);
    int current = 0;
    const int key_bits = layout_.id_bits + bits_for(std::uint64_t(layout_.grid.cell_count()) + 1);
    cuda::sort_by_key(s.keys, s.permutation, current, count, key_bits, temp_.as<void>(),
                      temp_.bytes(), stream_);
    cuda::gather(
        GatherArgs{s.permutation[current], pos_.as<Vec4>() + begin, velrho_.as<Vec4>() + begin,
                   id_.as<std::uint32_t>() + begin, type_.as<std::uint8_t>() + begin,
                   pos_pred_.as<Vec4>(), velrho_pred_.as<Vec4>(), id_scratch_.as<std::uint32_t>(),
                   type_scratch_.as<std::uint8_t>()},
        count, stream_);
    pos_.swap(pos_pred_);
    velrho_.swap(velrho_pred_);
    id_.swap(id_scratch_);
    type_.swap(type_scratch_);
    cuda::assign_cells(CellArgs{pos_.as<Vec4>(), cell_.as<std::uint32_t>(), layout_.grid}, count,
                       stream_);
    timer_.end(stream_, &KernelTimes::build_neibs, "sort");
}

std::vector<std::uint32_t> CudaDevice::lower_bounds(std::uint32_t count,
                                                    const std::vector<std::uint32_t>& bounds) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    // The bounds and results travel through the key scratch, which is free between sorts.
    std::uint32_t* d_bounds = reinterpret_cast<std::uint32_t*>(sort_scratch().keys[0]);
    std::uint32_t* d_result = d_bounds + bounds.size();
    if (2 * bounds.size() * 4 > layout_.list_bytes()) {
        throw std::logic_error("CudaDevice::lower_bounds: too many bounds");
    }
    SPH_CUDA_CHECK(cudaMemcpyAsync(d_bounds, bounds.data(), bounds.size() * 4,
                                   cudaMemcpyHostToDevice, stream_));
    cuda::lower_bounds(cell_.as<std::uint32_t>(), count, d_bounds,
                       static_cast<std::uint32_t>(bounds.size()), d_result, stream_);
    std::vector<std::uint32_t> result(bounds.size());
    SPH_CUDA_CHECK(cudaMemcpyAsync(result.data(), d_result, bounds.size() * 4,
                                   cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return result;
}

ParticleBuffers CudaDevice::current() {
    return ParticleBuffers{at(pos_), at(velrho_), at(id_), at(type_)};
}

ParticleBuffers CudaDevice::incoming() {
    return ParticleBuffers{at(pos_pred_), at(velrho_pred_), at(id_scratch_), at(type_scratch_)};
}

void CudaDevice::commit_incoming(const LocalLayout& layout) {
    pos_.swap(pos_pred_);
    velrho_.swap(velrho_pred_);
    id_.swap(id_scratch_);
    type_.swap(type_scratch_);
    local_ = layout;
}

NeighbourBuild CudaDevice::build_lists() {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    NeighbourBuild result;
    const std::uint32_t total = local_.total();
    if (total == 0) return result;
    timer_.begin(stream_);
    cuda::assign_cells(CellArgs{pos_.as<Vec4>(), cell_.as<std::uint32_t>(), layout_.grid}, total,
                       stream_);
    SPH_CUDA_CHECK(cudaMemsetAsync(cell_start_.as<void>(), 0xFF, cell_start_.bytes(), stream_));
    cuda::find_cell_ranges(
        CellRangeArgs{cell_.as<std::uint32_t>(), cell_start_.as<std::uint32_t>(),
                      cell_end_.as<std::uint32_t>(), total, layout_.grid.outside_cell()},
        stream_);
    Scalars* d_scalars = scalars_.as<Scalars>();
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
    cuda::build_neighbour_lists(args, local_.left, local_.left + local_.internal,
                                &d_scalars->largest_count, stream_);
    timer_.end(stream_, &KernelTimes::build_neibs, "neighbour lists");
    SPH_CUDA_CHECK(cudaMemcpyAsync(&result.largest_count, &d_scalars->largest_count, 4,
                                   cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return result;
}

// The internal particles in three stripes (paper section 3.4): the left and right edge stripes on
// their own high-priority streams, each followed by its edge slice's send, and the central stripe
// on the main stream, which the sends overlap.
void CudaDevice::forces(Stage stage, const ForceSends& sends) {
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
    // An edge stripe holds its edge slice and enough more particles to fill the GPU on its own;
    // a device without that neighbour has no stripe on that side.
    const std::uint32_t begin = local_.left, end = local_.left + local_.internal;
    std::uint32_t left_end = begin, right_begin = end;
    if (sends.left.count > 0) {
        left_end = begin + std::min(local_.internal, std::max(sends.left.count, stripe_fill_));
    }
    if (sends.right.count > 0) {
        right_begin = std::max(
            left_end, end - std::min(local_.internal, std::max(sends.right.count, stripe_fill_)));
    }
    SPH_CUDA_CHECK(cudaEventRecord(events_.begin, stream_));  // after the last euler
    const std::uint32_t stripe_begin[2] = {begin, right_begin}, stripe_end[2] = {left_end, end};
    events_.striped[0] = left_end > begin;
    events_.striped[1] = end > right_begin;
    for (int side = 0; side < 2; ++side) {
        SPH_CUDA_CHECK(cudaStreamWaitEvent(edge_stream_[side], events_.begin, 0));
        cuda::forces(args, stripe_begin[side], stripe_end[side], edge_stream_[side]);
        SPH_CUDA_CHECK(cudaEventRecord(events_.edge_done[side], edge_stream_[side]));
    }
    send(sends.left, 0, false);
    // When the device is narrower than its stripes, the right edge slice begins in the left one.
    send(sends.right, 1, sends.right.first < right_begin);
    cuda::forces(args, left_end, right_begin, stream_);
    SPH_CUDA_CHECK(cudaEventRecord(events_.central_done, stream_));
    for (cudaEvent_t edge : events_.edge_done)
        SPH_CUDA_CHECK(cudaStreamWaitEvent(stream_, edge, 0));
    SPH_CUDA_CHECK(cudaEventRecord(events_.end, stream_));
}

void CudaDevice::send(const ForceSend& send, int side, bool after_both_edges) {
    events_.sent[side] = send.count > 0;
    if (!events_.sent[side]) return;
    auto* receiver = dynamic_cast<CudaDevice*>(send.receiver);
    if (receiver == nullptr) throw std::logic_error("CudaDevice::send: the receiver is not a GPU");
    cudaStream_t s = edge_stream_[side];
    if (after_both_edges) SPH_CUDA_CHECK(cudaStreamWaitEvent(s, events_.edge_done[1 - side], 0));
    // The receiver's last euler still reads the forces about to be overwritten.
    SPH_CUDA_CHECK(cudaStreamWaitEvent(s, receiver->marker_, 0));
    SPH_CUDA_CHECK(cudaEventRecord(events_.send_begin[side], s));
    PeerTransport::copy_async(send.to,
                              force_buffer().offset(std::size_t(send.first) * sizeof(Vec4)),
                              std::size_t(send.count) * sizeof(Vec4), s);
    SPH_CUDA_CHECK(cudaEventRecord(events_.send_end[side], s));
}

// Forces time for the balancer, and how much of each send overlapped the forces still running
// on the main stream (the central stripe, from the stage's start to its end).
void CudaDevice::time_stage() {
    auto since_begin = [&](cudaEvent_t e) {
        float ms = 0.0f;
        SPH_CUDA_CHECK(cudaEventElapsedTime(&ms, events_.begin, e));
        return 1e-3 * ms;
    };
    last_forces_seconds_ = since_begin(events_.end);
    times_.forces += last_forces_seconds_;
    const double central_end = since_begin(events_.central_done);
    times_.forces_centre += central_end;
    static const char* const edge_name[2] = {"forces edge left", "forces edge right"};
    static const char* const copy_name[2] = {"edge-force copy left", "edge-force copy right"};
    const bool traced = trace_clock_.trace != nullptr;
    if (traced) {
        trace_clock_.add(main_track_, "forces centre", "kernel", events_.begin,
                         events_.central_done);
    }
    for (int side = 0; side < 2; ++side) {
        if (events_.striped[side]) {
            times_.forces_edges += since_begin(events_.edge_done[side]);
            if (traced) {
                trace_clock_.add(edge_track_[side], edge_name[side], "kernel", events_.begin,
                                 events_.edge_done[side]);
            }
        }
        if (!events_.sent[side]) continue;
        if (traced) {
            trace_clock_.add(edge_track_[side], copy_name[side], "exchange",
                             events_.send_begin[side], events_.send_end[side]);
        }
        const double a = since_begin(events_.send_begin[side]);
        const double b = since_begin(events_.send_end[side]);
        times_.exchange_copy += b - a;
        times_.exchange_hidden += std::max(0.0, std::min(b, central_end) - std::max(a, 0.0));
    }
}

float CudaDevice::minimum_dt() {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    Scalars* d_scalars = scalars_.as<Scalars>();
    timer_.begin(stream_);
    cuda::minimum_dt(dt_max_.as<float>(), local_.left, local_.left + local_.internal,
                     &d_scalars->minimum_dt, temp_.as<void>(), temp_.bytes(), stream_);
    timer_.end(stream_, &KernelTimes::minimum_scan, "minimum dt");
    float dt = 0.0f;
    SPH_CUDA_CHECK(cudaMemcpyAsync(&dt, &d_scalars->minimum_dt, sizeof(float),
                                   cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    for (cudaStream_t s : edge_stream_) SPH_CUDA_CHECK(cudaStreamSynchronize(s));  // the sends
    time_stage();
    timer_.collect(times_);  // everything before is done: reading the events costs nothing
    return dt;
}

void CudaDevice::record_marker() {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    SPH_CUDA_CHECK(cudaEventRecord(marker_, stream_));
}

void CudaDevice::inject_fault() {
    // An invalid device id: the call fails the way a lost GPU would, through the usual check.
    SPH_CUDA_CHECK(cudaSetDevice(visible_gpu_count() + 1000));
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
        cuda::euler_predictor(euler_args(dt), 0, local_.total(), stream_);
    } else {
        cuda::euler_corrector(euler_args(dt), 0, local_.total(), stream_);
    }
    timer_.end(stream_, &KernelTimes::euler,
               stage == Stage::kPredictor ? "euler predictor" : "euler corrector");
}

// The streams are drained first, so that the origin event is recorded on an idle GPU and waited
// for at once: its trace time is then known to within the wait's few microseconds.
void CudaDevice::trace_into(Trace* trace, int process) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    for (cudaStream_t s : {stream_, edge_stream_[0], edge_stream_[1]})
        SPH_CUDA_CHECK(cudaStreamSynchronize(s));
    timer_.collect(times_);  // what was recorded before belongs to the old setting
    trace_clock_.trace = trace;
    trace_clock_.process = process;
    if (trace != nullptr) {
        SPH_CUDA_CHECK(cudaEventRecord(trace_clock_.origin, stream_));
        SPH_CUDA_CHECK(cudaEventSynchronize(trace_clock_.origin));
        trace_clock_.origin_seconds = trace->now();
        main_track_ = trace->track(process, "main stream");
        edge_track_[0] = trace->track(process, "edge stream left");
        edge_track_[1] = trace->track(process, "edge stream right");
    }
    timer_.trace_into(&trace_clock_, main_track_);
}

void CudaDevice::synchronize() {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

void PeerTransport::copy_async(Endpoint dst, Endpoint src, std::size_t bytes, cudaStream_t stream) {
    if (bytes == 0) return;
    if (dst.gpu >= 0 && src.gpu >= 0) {
        SPH_CUDA_CHECK(cudaMemcpyPeerAsync(dst.ptr, dst.gpu, src.ptr, src.gpu, bytes, stream));
    } else {
        SPH_CUDA_CHECK(cudaMemcpyAsync(dst.ptr, src.ptr, bytes, cudaMemcpyDefault, stream));
    }
}

void PeerTransport::copy(Endpoint dst, Endpoint src, std::size_t bytes) {
    // On the legacy stream, then waited for: the device streams are non-blocking, so ordering
    // with kernels comes from the callers' synchronisation at the barriers.
    copy_async(dst, src, bytes, 0);
    SPH_CUDA_CHECK(cudaStreamSynchronize(0));
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
