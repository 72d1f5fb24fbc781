// The step's dt on a GPU (Device: "The step's dt, where the devices are"): each device reduces its
// stage's dt bounds into its slot of the minima, copies that into the other devices' memory, and
// its Euler (launched here too) waits for theirs on the GPU and takes the dt from them
// (step_dt.h), so that between a stage's Forces and its Euler no GPU waits for the host. The host
// reads the minima back while Euler runs.
#include <cstring>
#include <stdexcept>

#include "cuda/cuda_check.h"
#include "cuda/cuda_launchers.h"
#include "devices/cuda/cuda_device.h"
#include "devices/cuda/cuda_support.h"

namespace sph {

void CudaDevice::prepare_minima(std::uint32_t devices) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    devices_ = devices;
    const std::size_t bytes = std::size_t(kStages) * devices * sizeof(float);
    minima_.allocate("dt minima", bytes);
    minima_readback_.allocate("dt minima readback", bytes);
    SPH_CUDA_CHECK(cudaMemset(minima_.as<void>(), 0xFF, bytes));  // NaN until set
}

void CudaDevice::queue_minimum(Stage stage, std::uint32_t slot,
                               const std::vector<Endpoint>& also_to) {
    if (slot >= devices_) throw std::logic_error("CudaDevice::queue_minimum: no such slot");
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    // Behind the sends too, so that whoever waits for the minimum finds its external forces.
    const ForcesEvents& events = events_[index_of(stage)];
    for (int side = 0; side < 2; ++side) {
        if (events.sent[side])
            SPH_CUDA_CHECK(cudaStreamWaitEvent(stream_, events.send_end[side], 0));
    }
    float* mine = minima_of(stage) + slot;
    timer_.begin(stream_);
    cuda::minimum_dt(dt_max_.as<float>(), buffers_.ranges.left,
                     buffers_.ranges.left + buffers_.ranges.internal, mine, temp_.as<void>(),
                     temp_.bytes(), stream_);
    timer_.end(stream_, &KernelTimes::minimum_scan, "minimum dt");
    cuda::MinimumTargets stored{};
    for (const Endpoint& to : also_to) {
        if (to.gpu >= 0 && stored.count < cuda::MinimumTargets::kMax && stores_into(to.gpu)) {
            stored.to[stored.count++] = static_cast<float*>(to.ptr);
        } else {
            PeerTransport::copy_async(to, Endpoint{gpu_, mine}, sizeof(float), stream_);
        }
    }
    cuda::store_minimum(mine, stored, stream_);
    SPH_CUDA_CHECK(cudaEventRecord(minimum_sent_[index_of(stage)], stream_));
}

// Its own memory, or a peer's where the GPUs can reach each other (peer access is turned on here
// the first time it is asked for).
bool CudaDevice::stores_into(int gpu) {
    if (gpu == gpu_) return true;
    const auto known = peer_stores_.find(gpu);
    if (known != peer_stores_.end()) return known->second;
    int possible = 0;
    SPH_CUDA_CHECK(cudaDeviceCanAccessPeer(&possible, gpu_, gpu));
    if (possible != 0) enable_peer_access(gpu_, gpu);
    peer_stores_[gpu] = possible != 0;
    return possible != 0;
}

void CudaDevice::wait_for_minima(Stage stage, const std::vector<Device*>& from) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    for (Device* device : from) {
        auto* other = dynamic_cast<CudaDevice*>(device);
        if (other == nullptr) throw std::logic_error("CudaDevice::wait_for_minima: not a GPU");
        SPH_CUDA_CHECK(cudaStreamWaitEvent(stream_, other->minimum_sent_[index_of(stage)], 0));
    }
    // Euler follows at once; the copy to the host runs beside it.
    SPH_CUDA_CHECK(cudaEventRecord(minima_here_[index_of(stage)], stream_));
    SPH_CUDA_CHECK(cudaStreamWaitEvent(readback_stream_, minima_here_[index_of(stage)], 0));
    SPH_CUDA_CHECK(cudaMemcpyAsync(minima_readback_of(stage), minima_of(stage),
                                   devices_ * sizeof(float), cudaMemcpyDeviceToHost,
                                   readback_stream_));
    SPH_CUDA_CHECK(cudaEventRecord(minima_read_[index_of(stage)], readback_stream_));
}

// Through the read-back memory, which then already holds what read_minima returns.
void CudaDevice::set_minima(Stage stage, const std::vector<float>& minima) {
    if (minima.size() != devices_) {
        throw std::logic_error("CudaDevice::set_minima: not one minimum per device");
    }
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    SPH_CUDA_CHECK(cudaEventSynchronize(minima_read_[index_of(stage)]));  // the last copy is out
    std::memcpy(minima_readback_of(stage), minima.data(), devices_ * sizeof(float));
    SPH_CUDA_CHECK(cudaMemcpyAsync(minima_of(stage), minima_readback_of(stage),
                                   devices_ * sizeof(float), cudaMemcpyHostToDevice, stream_));
    SPH_CUDA_CHECK(cudaEventRecord(minima_read_[index_of(stage)], stream_));
}

// The stage's Forces are done once its minima are: their events are read here.
std::vector<float> CudaDevice::read_minima(Stage stage) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    SPH_CUDA_CHECK(cudaEventSynchronize(minima_read_[index_of(stage)]));
    time_untimed_stage(stage);
    timer_.collect_finished(times_);
    const float* read = minima_readback_of(stage);
    return std::vector<float>(read, read + devices_);
}

void CudaDevice::set_bodies(const BodyTable& bodies) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));  // no Euler reads the old laws any more
    body_count_ = 0;
    const auto upload = [](DeviceMemory& to, const char* name, const void* from,
                           std::size_t bytes) {
        if (bytes == 0) return;
        to.allocate(name, bytes);
        SPH_CUDA_CHECK(cudaMemcpy(to.as<void>(), from, bytes, cudaMemcpyHostToDevice));
    };
    upload(body_laws_, "body laws", bodies.laws.data(), bodies.laws.size() * sizeof(BodyLaw));
    upload(body_samples_, "body samples", bodies.samples.data(),
           bodies.samples.size() * sizeof(double));
    body_count_ = std::uint32_t(bodies.laws.size());
    floating_bits_ = floating_bits(bodies.laws.data(), bodies.laws.size());
}

// Before the Euler that moves by them, on the stream it runs on: the host's copy may go once
// this returns (a copy from pageable memory is staged before it does).
void CudaDevice::set_body_poses(const std::vector<BodyPose>& poses) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    const std::size_t bytes = poses.size() * sizeof(BodyPose);
    if (bytes == 0) return;
    if (body_poses_.bytes() < bytes) {
        SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));  // no Euler reads the old ones any more
        body_poses_.allocate("body poses", bytes);
    }
    SPH_CUDA_CHECK(cudaMemcpyAsync(body_poses_.as<void>(), poses.data(), bytes,
                                   cudaMemcpyHostToDevice, stream_));
}

void CudaDevice::set_damping(const std::vector<DampingZone>& zones) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));  // no Euler reads the old ones any more
    damping_count_ = 0;
    if (zones.empty()) return;
    const std::size_t bytes = zones.size() * sizeof(DampingZone);
    damping_zones_.allocate("damping zones", bytes);
    SPH_CUDA_CHECK(
        cudaMemcpy(damping_zones_.as<void>(), zones.data(), bytes, cudaMemcpyHostToDevice));
    damping_count_ = std::int32_t(zones.size());
}

EulerArgs CudaDevice::euler_args() const {
    const BodyLaws bodies{body_laws_.as<BodyLaw>(), body_samples_.as<double>(), body_count_,
                          body_poses_.bytes() > 0 ? body_poses_.as<BodyPose>() : nullptr};
    const bool mdbc = params_.boundary == BoundaryModel::kMdbc;
    return EulerArgs{buffers_.current.pos.as<FixedPos>(),
                     buffers_.current.velrho.as<Vec4>(),
                     predicted_pos(),
                     predicted_velrho(),
                     force_.as<Vec4>(),
                     buffers_.current.type.as<std::uint8_t>(),
                     0.0f,  // each thread's, from the minima (euler_dt)
                     params_.rho0,
                     layout_.grid.frame,
                     bodies,
                     0.0,  // the step's, set by the launcher
                     mdbc ? buffers_.current.to_ghost.as<Vec3>() : nullptr};
}

void CudaDevice::euler(Stage stage, const StepClock& clock) {
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    const bool corrector = stage == Stage::kCorrector;
    if (corrector) settle_instruments();  // the predictor writes elsewhere
    const EulerDt dt{minima_of(Stage::kPredictor),
                     corrector ? minima_of(Stage::kCorrector) : nullptr, devices_, clock};
    timer_.begin(stream_);
    if (corrector) {
        const DampingZones damping{damping_zones_.as<DampingZone>(), damping_count_};
        cuda::euler_corrector(euler_args(), dt, damping, 0, buffers_.ranges.total(), stream_);
    } else {
        cuda::euler_predictor(euler_args(), dt, 0, buffers_.ranges.total(), stream_);
    }
    timer_.end(stream_, &KernelTimes::euler, corrector ? "euler corrector" : "euler predictor");
    timer_.collect_finished(times_);  // while Euler runs
}

}  // namespace sph
