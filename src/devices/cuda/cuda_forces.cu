// The Forces stage of a GPU: the internal particles in three stripes on three streams, the
// edge-force sends that overlap the central stripe, the dt minimum, and how much of each send
// the central stripe hid.
#include <algorithm>
#include <stdexcept>

#include "cuda/cuda_check.h"
#include "cuda/cuda_launchers.h"
#include "devices/cuda/cuda_device.h"

namespace sph {

// The internal particles in three stripes (docs/design.md: paper section 3.4): the left and right
// edge stripes on their own high-priority streams, each followed by its edge slice's send, and the
// central stripe on the main stream, which the sends overlap.
void CudaDevice::forces(Stage stage, const ForceSends& sends) {
    finish_stage_timing();  // the last stage's events are recorded anew below
    const bool predicted = stage == Stage::kCorrector;
    const ForcesArgs args{predicted ? predicted_pos() : buffers_.current.pos.as<Vec4>(),
                          predicted ? predicted_velrho() : buffers_.current.velrho.as<Vec4>(),
                          buffers_.current.type.as<std::uint8_t>(),
                          cell_.as<std::uint32_t>(),
                          cell_start_.as<std::uint32_t>(),
                          cell_end_.as<std::uint32_t>(),
                          list_or_null(),
                          force_.as<Vec4>(),
                          dt_max_.as<float>(),
                          list_rows_.as<std::uint32_t>(),
                          layout_.max_neighbours,
                          layout_.grid,
                          params_};
    SPH_CUDA_CHECK(cudaSetDevice(gpu_));
    // An edge stripe holds its edge slice and enough more particles to fill the GPU on its own;
    // a device without that neighbour has no stripe on that side.
    const std::uint32_t begin = buffers_.ranges.left,
                        end = buffers_.ranges.left + buffers_.ranges.internal;
    std::uint32_t left_end = begin, right_begin = end;
    if (sends.left.count > 0) {
        left_end =
            begin + std::min(buffers_.ranges.internal, std::max(sends.left.count, stripe_fill_));
    }
    if (sends.right.count > 0) {
        right_begin = std::max(left_end, end - std::min(buffers_.ranges.internal,
                                                        std::max(sends.right.count, stripe_fill_)));
    }
    SPH_CUDA_CHECK(cudaEventRecord(events_.begin, stream_));  // after the last euler
    events_.walls = stage == Stage::kPredictor && params_.boundary == BoundaryModel::kMdbc;
    if (events_.walls) {  // the wall densities are rewritten where a measurement reads them
        settle_instruments();
        cuda::mdbc_densities(mdbc_args(), 0, buffers_.ranges.total(), stream_);
    }
    SPH_CUDA_CHECK(cudaEventRecord(events_.walls_done, stream_));
    const std::uint32_t stripe_begin[2] = {begin, right_begin}, stripe_end[2] = {left_end, end};
    events_.striped[0] = left_end > begin;
    events_.striped[1] = end > right_begin;
    for (int side = 0; side < 2; ++side) {
        SPH_CUDA_CHECK(cudaStreamWaitEvent(edge_stream_[side], events_.walls_done, 0));
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
    // The central stripe is queued: the host waits for each send that wants to know, while the
    // GPU goes on computing.
    const ForceSend* side_send[2] = {&sends.left, &sends.right};
    for (int side = 0; side < 2; ++side) {
        if (!events_.sent[side] || !side_send[side]->landed) continue;
        SPH_CUDA_CHECK(cudaEventSynchronize(events_.send_end[side]));
        side_send[side]->landed();
    }
}

void CudaDevice::send(const ForceSend& send, int side, bool after_both_edges) {
    events_.sent[side] = send.count > 0;
    if (!events_.sent[side]) return;
    // No receiver: host staging for another rank, free again once its message has left.
    auto* receiver = dynamic_cast<CudaDevice*>(send.receiver);
    if (send.receiver != nullptr && receiver == nullptr) {
        throw std::logic_error("CudaDevice::send: the receiver is not a GPU");
    }
    cudaStream_t s = edge_stream_[side];
    if (after_both_edges) SPH_CUDA_CHECK(cudaStreamWaitEvent(s, events_.edge_done[1 - side], 0));
    // The receiver's last euler still reads the forces about to be overwritten.
    if (receiver != nullptr) SPH_CUDA_CHECK(cudaStreamWaitEvent(s, receiver->marker_, 0));
    SPH_CUDA_CHECK(cudaEventRecord(events_.send_begin[side], s));
    if (send.to.ptr != nullptr) {  // else a message takes the forces from here
        PeerTransport::copy_async(send.to,
                                  force_buffer().offset(std::size_t(send.first) * sizeof(Vec4)),
                                  std::size_t(send.count) * sizeof(Vec4), s);
    }
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
    const double walls = events_.walls ? since_begin(events_.walls_done) : 0.0;
    times_.forces_centre += central_end - walls;  // the stripes start once the walls are done
    static const char* const edge_name[2] = {"forces edge left", "forces edge right"};
    static const char* const copy_name[2] = {"edge-force copy left", "edge-force copy right"};
    const bool traced = trace_clock_.trace != nullptr;
    if (events_.walls) {
        times_.boundary += walls;
        if (traced) {
            trace_clock_.add(main_track_, "mDBC walls", "kernel", events_.begin,
                             events_.walls_done);
        }
    }
    if (traced) {
        trace_clock_.add(main_track_, "forces centre", "kernel", events_.walls_done,
                         events_.central_done);
    }
    for (int side = 0; side < 2; ++side) {
        if (events_.striped[side]) {
            times_.forces_edges += since_begin(events_.edge_done[side]) - walls;
            if (traced) {
                trace_clock_.add(edge_track_[side], edge_name[side], "kernel", events_.walls_done,
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
    cuda::minimum_dt(dt_max_.as<float>(), buffers_.ranges.left,
                     buffers_.ranges.left + buffers_.ranges.internal, &d_scalars->minimum_dt,
                     temp_.as<void>(), temp_.bytes(), stream_);
    timer_.end(stream_, &KernelTimes::minimum_scan, "minimum dt");
    // Into pinned memory: a copy to pageable memory takes a staging detour.
    float* dt = dt_readback_.as<float>();
    SPH_CUDA_CHECK(cudaMemcpyAsync(dt, &d_scalars->minimum_dt, sizeof(float),
                                   cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    for (cudaStream_t s : edge_stream_) SPH_CUDA_CHECK(cudaStreamSynchronize(s));  // the sends
    // The balancer's figure now; the stage's other events once Euler is on its way
    // (finish_stage_timing): the GPU waits for the host from here to then.
    float ms = 0.0f;
    SPH_CUDA_CHECK(cudaEventElapsedTime(&ms, events_.begin, events_.end));
    last_forces_seconds_ = 1e-3 * ms;
    stage_untimed_ = true;
    return *dt;
}

void CudaDevice::finish_stage_timing() {
    if (stage_untimed_) time_stage();
    stage_untimed_ = false;
    timer_.collect_finished(times_);
}

}  // namespace sph
