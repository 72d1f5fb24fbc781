// The instruments on a GPU: the sites' sums and the front's minima are queued on a stream of
// their own behind the step, beside the next iteration's Forces (cuda_device.h: settle_instruments
// says where the main stream waits for them), read back through pinned memory, and waited for
// only when the host needs the readings (Device::start_measuring, finish_measuring), so that a
// run that measures every iteration need not drain the GPU for it.
#include <stdexcept>

#include "cuda/body_launchers.h"
#include "cuda/cuda_check.h"
#include "cuda/instrument_launchers.h"
#include "devices/cuda/cuda_device.h"

namespace sph {

// The loads on the moving bodies, after the work queued on the main stream (the last Euler).
std::vector<unsigned long long> CudaDevice::body_loads(const std::vector<FixedPos>& moment_points,
                                                       bool predicted) {
    std::vector<unsigned long long> sums(moment_points.size() * kBodyLoadSums, 0);
    if (moment_points.empty()) return sums;
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    const std::size_t point_bytes = moment_points.size() * sizeof(FixedPos);
    const std::size_t sum_bytes = sums.size() * sizeof(unsigned long long);
    if (body_points_.bytes() < point_bytes)
        body_points_.allocate("body moment points", point_bytes);
    if (body_sums_.bytes() < sum_bytes) body_sums_.allocate("body loads", sum_bytes);
    SPH_CUDA_CHECK(cudaMemcpyAsync(body_points_.as<void>(), moment_points.data(), point_bytes,
                                   cudaMemcpyHostToDevice, stream_));
    SPH_CUDA_CHECK(cudaMemsetAsync(body_sums_.as<void>(), 0, sum_bytes, stream_));
    InstrumentArgs args = instrument_args();
    if (predicted) {
        args.pos = predicted_pos();
        args.velrho = predicted_velrho();
    }
    cuda::body_loads(args, body_points_.as<FixedPos>(), floating_bits_,
                     body_sums_.as<unsigned long long>(), stream_);
    SPH_CUDA_CHECK(cudaMemcpyAsync(sums.data(), body_sums_.as<void>(), sum_bytes,
                                   cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return sums;
}

void CudaDevice::set_instrument_sites(const std::vector<InstrumentSite>& sites) {
    if (measuring_.started) {
        throw std::logic_error("CudaDevice::set_instrument_sites: a measurement is unfinished");
    }
    if (sites.size() * sizeof(InstrumentSite) > instrument_sites_.bytes()) {
        throw std::logic_error(
            "CudaDevice::set_instrument_sites: more sites than the layout holds");
    }
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    // Behind whatever the instrument stream still runs; the host's copy may go once it returns.
    SPH_CUDA_CHECK(cudaStreamSynchronize(instrument_stream_));
    if (!sites.empty()) {
        SPH_CUDA_CHECK(cudaMemcpy(instrument_sites_.as<void>(), sites.data(),
                                  sites.size() * sizeof(InstrumentSite), cudaMemcpyHostToDevice));
    }
    site_count_ = static_cast<std::uint32_t>(sites.size());
    walls_from_ = site_count_;
    while (walls_from_ > 0 && sites[walls_from_ - 1].face >= 0) --walls_from_;
}

// The front's searches (behind the last lead, then wider where they find nothing) are decided
// on the device: one read-back, whatever they find (instruments_body.h). A measurement's calls
// lie on the host's path between two steps, where the GPU has only the corrector's Euler left to
// run: here only the walls' tiles, which the next step's mDBC kernel waits for; the points, the
// front and the copy back once that step is queued (flush_measurement).
void CudaDevice::start_measuring(const FrontSpec* front) {
    if (measuring_.started) {
        throw std::logic_error("CudaDevice::start_measuring: the last measurement is unfinished");
    }
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    // The last measurement is finished: its interval costs nothing to read. (Here, on the thread
    // that steps, not in finish_measuring, which a writer thread may call while a step runs.)
    instrument_timer_.collect(times_);
    // Timed only for a trace: the run report has no row for it, and two events fewer a
    // measurement are two calls fewer on the host's path.
    const bool timed = trace_clock_.trace != nullptr;
    const InstrumentArgs args = instrument_args();
    SPH_CUDA_CHECK(cudaEventRecord(state_ready_, stream_));
    cudaStream_t stream = instrument_stream_;
    SPH_CUDA_CHECK(cudaStreamWaitEvent(stream, state_ready_, 0));
    if (measurement_hold_us_ > 0) cuda::hold(measurement_hold_us_, stream);
    if (timed) instrument_timer_.begin(stream);
    // The walls' tiles (the sites' tail) first: the next step's mDBC kernel rewrites the wall
    // densities they read and waits for them alone (walls_read_), where it had waited for the
    // whole measurement and kept it from running beside that step's Forces. The points and the
    // front read the fluid, which nothing rewrites before the corrector's Euler.
    cuda::site_sums(args, instrument_sites_.as<InstrumentSite>() + walls_from_,
                    site_sums_on_device() + std::size_t(walls_from_) * kCellPlanes,
                    site_count_ - walls_from_, stream);
    SPH_CUDA_CHECK(cudaEventRecord(walls_read_, stream));
    {
        std::lock_guard<std::mutex> lock(deferred_mutex_);
        deferred_ = DeferredMeasurement{true, timed, args, std::nullopt};
        if (front != nullptr) deferred_.front = *front;
    }
    instruments_pending_ = true;
    measured_pos_ = args.pos;
    measuring_ = Measuring{true, front != nullptr};
}

void CudaDevice::flush_measurement() {
    std::lock_guard<std::mutex> lock(deferred_mutex_);
    if (!deferred_.pending) return;
    deferred_.pending = false;
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    const DeferredMeasurement& m = deferred_;
    cudaStream_t stream = instrument_stream_;
    // The points: the sites ahead of the walls' tiles.
    cuda::site_sums(m.args, instrument_sites_.as<InstrumentSite>(), site_sums_on_device(),
                    walls_from_, stream);
    if (m.front) {
        front_slot_ = 1 - front_slot_;
        cuda::front_minima(m.args, *m.front, instrument_sums_.as<cuda::FrontState>(), front_slot_,
                           stream);
    }
    if (m.timed) instrument_timer_.end(stream, nullptr, "measurement");
    // One copy back: the front's minima lead the sums.
    SPH_CUDA_CHECK(
        cudaMemcpyAsync(readback_.as<void>(), instrument_sums_.as<void>(),
                        sizeof(cuda::FrontState) + site_count_ * kCellPlanes * sizeof(SiteSums),
                        cudaMemcpyDeviceToHost, stream));
    SPH_CUDA_CHECK(cudaEventRecord(measured_, stream));
}

InstrumentSums CudaDevice::finish_measuring() {
    if (!measuring_.started) {
        throw std::logic_error("CudaDevice::finish_measuring: no measurement was started");
    }
    measuring_.started = false;
    flush_measurement();  // where no step came since it started
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    SPH_CUDA_CHECK(cudaEventSynchronize(measured_));
    InstrumentSums out;
    const auto* front = readback_.as<cuda::FrontState>();
    const auto* sums = reinterpret_cast<const SiteSums*>(front + 1);
    out.planes.assign(sums, sums + std::size_t(site_count_) * kCellPlanes);
    if (measuring_.front) out.front_key = cuda::found_front_key(front->slot[front_slot_]);
    return out;
}

void CudaDevice::settle_instruments() {
    if (!instruments_pending_) return;
    flush_measurement();
    SPH_CUDA_CHECK(cudaStreamWaitEvent(stream_, measured_, 0));
    instruments_pending_ = false;
}

void CudaDevice::wait_for_measurement() {
    if (!instruments_pending_) return;
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    flush_measurement();
    SPH_CUDA_CHECK(cudaEventSynchronize(measured_));
    instruments_pending_ = false;
}

void CudaDevice::settle_wall_readings() {
    if (instruments_pending_) SPH_CUDA_CHECK(cudaStreamWaitEvent(stream_, walls_read_, 0));
}

// The front's minima lead the sums in instrument_sums_ (and in readback_).
SiteSums* CudaDevice::site_sums_on_device() const {
    return reinterpret_cast<SiteSums*>(instrument_sums_.as<cuda::FrontState>() + 1);
}

}  // namespace sph
