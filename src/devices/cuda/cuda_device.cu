// CudaDevice's set-up and memory: its streams and events, the arrays sized and allocated by name,
// particles uploaded and downloaded, markers, the kernel times and the trace. The rebuild's
// launches are in cuda_rebuild.cu, Forces in cuda_forces.cu, the dt and Euler in cuda_step_dt.cu,
// the instruments in cuda_instruments.cu.
#include "devices/cuda/cuda_device.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "cuda/cuda_check.h"
#include "cuda/cuda_launchers.h"
#include "devices/cuda/cuda_support.h"

namespace sph {

CudaDevice::CudaDevice(int gpu_id, std::uint32_t edge_stripe) : gpu_(gpu_id) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    SPH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    // The edge stripes go first: their blocks are scheduled before the central stripe's.
    int least = 0, greatest = 0;
    SPH_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    for (cudaStream_t& s : edge_stream_) {
        SPH_CUDA_CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest));
    }
    // The instruments' blocks take the SMs as Forces' blocks leave them.
    SPH_CUDA_CHECK(
        cudaStreamCreateWithPriority(&instrument_stream_, cudaStreamNonBlocking, greatest));
    SPH_CUDA_CHECK(cudaStreamCreateWithFlags(&readback_stream_, cudaStreamNonBlocking));
    int sms = 0, threads_per_sm = 0;
    SPH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu_));
    SPH_CUDA_CHECK(
        cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, gpu_));
    stripe_fill_ = edge_stripe > 0 ? edge_stripe
                                   : static_cast<std::uint32_t>(sms) *
                                         static_cast<std::uint32_t>(threads_per_sm);
    for (ForcesEvents& f : events_) {
        for (cudaEvent_t* e :
             {&f.begin, &f.walls_done, &f.central_done, &f.end, &f.edge_done[0], &f.edge_done[1],
              &f.send_begin[0], &f.send_begin[1], &f.send_end[0], &f.send_end[1]}) {
            SPH_CUDA_CHECK(cudaEventCreate(e));
        }
    }
    SPH_CUDA_CHECK(cudaEventCreate(&trace_clock_.origin));
    for (int s = 0; s < kStages; ++s) {
        SPH_CUDA_CHECK(cudaEventCreateWithFlags(&minimum_sent_[s], cudaEventDisableTiming));
        SPH_CUDA_CHECK(cudaEventCreateWithFlags(&minima_read_[s], cudaEventDisableTiming));
        SPH_CUDA_CHECK(cudaEventCreateWithFlags(&minima_here_[s], cudaEventDisableTiming));
    }
    SPH_CUDA_CHECK(cudaEventCreateWithFlags(&marker_, cudaEventDisableTiming));
    SPH_CUDA_CHECK(cudaEventCreateWithFlags(&measured_, cudaEventDisableTiming));
    SPH_CUDA_CHECK(cudaEventCreateWithFlags(&state_ready_, cudaEventDisableTiming));
    SPH_CUDA_CHECK(cudaEventCreateWithFlags(&walls_read_, cudaEventDisableTiming));
}

CudaDevice::~CudaDevice() {
    cudaSetDevice(gpu_);
    for (const ForcesEvents& f : events_) {
        for (cudaEvent_t e :
             {f.begin, f.walls_done, f.central_done, f.end, f.edge_done[0], f.edge_done[1],
              f.send_begin[0], f.send_begin[1], f.send_end[0], f.send_end[1]}) {
            if (e != nullptr) cudaEventDestroy(e);
        }
    }
    for (int s = 0; s < kStages; ++s) {
        for (cudaEvent_t e : {minimum_sent_[s], minima_read_[s], minima_here_[s]}) {
            if (e != nullptr) cudaEventDestroy(e);
        }
    }
    for (cudaEvent_t e : {trace_clock_.origin, marker_, measured_, state_ready_, walls_read_}) {
        if (e != nullptr) cudaEventDestroy(e);
    }
    for (cudaStream_t s :
         {stream_, edge_stream_[0], edge_stream_[1], instrument_stream_, readback_stream_}) {
        if (s != nullptr) cudaStreamDestroy(s);
    }
}

std::string CudaDevice::description() const {
    return "GPU " + std::to_string(gpu_) + " (" + gpu_name(gpu_) + ")";
}

std::size_t CudaDevice::temp_bytes(std::uint32_t capacity) const {
    return std::max({cuda::sort_temp_bytes(capacity), cuda::minimum_temp_bytes(capacity),
                     cuda::select_temp_bytes(capacity)});
}

std::size_t CudaDevice::bytes_needed(const DeviceLayout& layout) const {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    return layout.bytes() + temp_bytes(layout.capacity) + sizeof(Scalars) +
           sizeof(cuda::FrontState);
}

Device::MemoryPool CudaDevice::memory_pool() const {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    std::size_t free_bytes = 0, total_bytes = 0;
    SPH_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    return MemoryPool{gpu_, free_bytes};
}

void CudaDevice::allocate(const DeviceLayout& layout, const SphParams& params) {
    site_count_ = walls_from_ = 0;
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
    for_each_field(
        [&](auto field, DeviceMemory& current, DeviceMemory& incoming) {
            if (!layout.keeps(field.kept)) {  // no memory at all: null in the kernels
                current = DeviceMemory();
                incoming = DeviceMemory();
                return;
            }
            current.allocate(field.name, n * field.bytes);
            incoming.allocate(std::string("incoming ") + field.name, n * field.bytes);
        },
        buffers_.current, buffers_.incoming);
    force_.allocate("force", n * sizeof(Vec4));
    dt_max_.allocate("dt_max", n * sizeof(float));
    cell_.allocate("cell", n * sizeof(std::uint32_t));
    cell_start_.allocate("cell_start", (layout.grid.cell_count() + 1) * sizeof(std::uint32_t));
    cell_end_.allocate("cell_end", (layout.grid.cell_count() + 1) * sizeof(std::uint32_t));
    cell_split_.allocate("cell_split", std::size_t(layout.grid.cell_count() + 1) * kCellSplitBytes);
    list_.allocate("neighbour_list", layout.list_bytes());
    list_rows_.allocate("neighbour_list_rows", layout.list_index_bytes());
    temp_.allocate("cub_temp", temp_bytes(layout.capacity));
    scalars_.allocate("scalars", sizeof(Scalars));
    const Scalars initial{};
    SPH_CUDA_CHECK(
        cudaMemcpy(scalars_.as<void>(), &initial, sizeof(Scalars), cudaMemcpyHostToDevice));
    instrument_sites_.allocate("instrument sites",
                               layout.instrument_sites * sizeof(InstrumentSite));
    const std::size_t sums_bytes =
        sizeof(cuda::FrontState) + layout.instrument_sites * kCellPlanes * sizeof(SiteSums);
    instrument_sums_.allocate("instrument sums", sums_bytes);
    const cuda::FrontState front = cuda::initial_front_state();
    SPH_CUDA_CHECK(
        cudaMemcpy(instrument_sums_.as<void>(), &front, sizeof front, cudaMemcpyHostToDevice));
    readback_.allocate("instrument readback", sums_bytes);
}

CudaDevice::SortScratch CudaDevice::sort_scratch() const {
    const std::size_t n = layout_.capacity;
    SortScratch s;
    s.keys[0] = force_.as<std::uint64_t>();
    s.keys[1] = force_.as<std::uint64_t>() + n;
    s.permutation[0] = dt_max_.as<std::uint32_t>();
    s.permutation[1] = cell_.as<std::uint32_t>();
    return s;
}

void CudaDevice::upload(const HostParticles& particles) {
    if (particles.size() > layout_.capacity) {
        throw std::logic_error("CudaDevice::upload: more particles than the allocated capacity");
    }
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    settle_instruments();
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));  // the copies below are not on the stream
    const std::uint32_t count = static_cast<std::uint32_t>(particles.size());
    buffers_.ranges = LocalRanges{0, count, 0};
    walls_selected_ = false;
    for_each_field(
        [count](auto field, DeviceMemory& to, const auto& from) {
            if (to.bytes() == 0) return;  // not kept on this device
            SPH_CUDA_CHECK(cudaMemcpy(to.as<void>(), from.data(), count * field.bytes,
                                      cudaMemcpyHostToDevice));
        },
        buffers_.current, particles);
}

void CudaDevice::download(HostParticles& particles) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    const std::size_t first = buffers_.ranges.left, n = buffers_.ranges.internal;
    particles.frame = layout_.grid.frame;
    particles.resize(n);
    for_each_field(
        [first, n](auto field, auto& to, const DeviceMemory& from) {
            using T = typename decltype(field)::type;
            if (from.bytes() == 0) {
                std::fill(to.begin(), to.end(), T{});  // not kept here: zero
                return;
            }
            SPH_CUDA_CHECK(cudaMemcpy(to.data(), from.as<char>() + first * field.bytes,
                                      n * field.bytes, cudaMemcpyDeviceToHost));
        },
        particles, buffers_.current);
}

void CudaDevice::wait_for_marker() {
    SPH_CUDA_CHECK(cudaEventSynchronize(marker_));
}

void CudaDevice::record_marker() {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    SPH_CUDA_CHECK(cudaEventRecord(marker_, stream_));
}

void CudaDevice::inject_fault() {
    // An invalid device id: the call fails the way a lost GPU would, through the usual check.
    SPH_CUDA_CHECK(cudaSetDevice(visible_gpu_count() + 1000));
}

// The streams are drained first, so that the origin event is recorded on an idle GPU and waited
// for at once: its trace time is then known to within the wait's few microseconds.
void CudaDevice::trace_into(Trace* trace, int process) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    for (cudaStream_t s : {stream_, edge_stream_[0], edge_stream_[1], instrument_stream_})
        SPH_CUDA_CHECK(cudaStreamSynchronize(s));
    // What was recorded before belongs to the old setting.
    finish_stage_timing();
    timer_.collect(times_);
    instrument_timer_.collect(times_);
    trace_clock_.trace = trace;
    trace_clock_.process = process;
    if (trace != nullptr) {
        SPH_CUDA_CHECK(cudaEventRecord(trace_clock_.origin, stream_));
        SPH_CUDA_CHECK(cudaEventSynchronize(trace_clock_.origin));
        trace_clock_.origin_seconds = trace->now();
        main_track_ = trace->track(process, "main stream");
        edge_track_[0] = trace->track(process, "edge stream left");
        edge_track_[1] = trace->track(process, "edge stream right");
        instrument_track_ = trace->track(process, "instrument stream");
    }
    timer_.trace_into(&trace_clock_, main_track_);
    instrument_timer_.trace_into(&trace_clock_, instrument_track_);
}

KernelTimes CudaDevice::kernel_times() {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    finish_stage_timing();
    timer_.collect(times_);
    instrument_timer_.collect(times_);
    return times_;
}

std::size_t CudaDevice::bytes_allocated() const {
    std::size_t total = 0;
    for_each_field(
        [&](auto, const DeviceMemory& a, const DeviceMemory& b) { total += a.bytes() + b.bytes(); },
        buffers_.current, buffers_.incoming);
    for (const DeviceMemory* m :
         {&force_, &dt_max_, &cell_, &cell_start_, &cell_end_, &cell_split_, &list_, &list_rows_,
          &temp_, &scalars_, &minima_, &instrument_sites_, &instrument_sums_}) {
        total += m->bytes();
    }
    return total;
}

}  // namespace sph
