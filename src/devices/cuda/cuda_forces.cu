// The Forces stage of a GPU: the internal particles in three stripes on three streams, the
// edge-force sends that overlap the central stripe, and how much of each send the central
// stripe hid.
#include <algorithm>
#include <stdexcept>

#include "cuda/cuda_check.h"
#include "cuda/cuda_launchers.h"
#include "devices/cuda/cuda_device.h"

namespace sph {

// The internal particles in three stripes (docs/design.md: paper section 3.4): the left and right
// edge stripes on their own high-priority streams, each followed by its edge slice's send, and the
// central stripe on the main stream, which the sends overlap.
void CudaDevice::forces(Stage stage, const ForceSends& sends, const StepClock& clock) {
    // This stage's events of the last step are recorded anew below.
    if (stage_untimed_[index_of(stage)]) finish_stage_timing();
    ForcesEvents& events = events_[index_of(stage)];
    stage_untimed_[index_of(stage)] = true;
    const ForcesArgs args = forces_args(stage, clock);
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
    SPH_CUDA_CHECK(cudaEventRecord(events.begin, stream_));  // after the last euler
    events.walls = stage == Stage::kPredictor && params_.boundary == BoundaryModel::kMdbc;
    if (events.walls) queue_wall_densities();
    SPH_CUDA_CHECK(cudaEventRecord(events.walls_done, stream_));
    const std::uint32_t stripe_begin[2] = {begin, right_begin}, stripe_end[2] = {left_end, end};
    events.striped[0] = left_end > begin;
    events.striped[1] = end > right_begin;
    for (int side = 0; side < 2; ++side) {
        SPH_CUDA_CHECK(cudaStreamWaitEvent(edge_stream_[side], events.walls_done, 0));
        cuda::forces(args, stripe_begin[side], stripe_end[side], edge_stream_[side]);
        SPH_CUDA_CHECK(cudaEventRecord(events.edge_done[side], edge_stream_[side]));
    }
    send(sends.left, 0, false, events);
    // When the device is narrower than its stripes, the right edge slice begins in the left one.
    send(sends.right, 1, sends.right.first < right_begin, events);
    cuda::forces(args, left_end, right_begin, stream_);
    SPH_CUDA_CHECK(cudaEventRecord(events.central_done, stream_));
    flush_measurement();  // the GPU has the Forces to run meanwhile
    for (cudaEvent_t edge : events.edge_done) SPH_CUDA_CHECK(cudaStreamWaitEvent(stream_, edge, 0));
    SPH_CUDA_CHECK(cudaEventRecord(events.end, stream_));
    // The central stripe is queued: the host waits for each send that wants to know, while the
    // GPU goes on computing.
    report_landed_sends(sends, events);
}

// Forces' arguments: the corrector's Forces read the predicted state, and under
// --no-penetration the predictor's dt minima, which are in by then, to find the step's dt
// (wall_contact.h).
ForcesArgs CudaDevice::forces_args(Stage stage, const StepClock& clock) const {
    const bool predicted = stage == Stage::kCorrector;
    ForcesArgs args{predicted ? predicted_pos() : buffers_.current.pos.as<FixedPos>(),
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
                    params_,
                    cell_split_.as<std::uint8_t>()};
    if (predicted && params_.no_penetration) {
        args.to_ghost = buffers_.current.to_ghost.as<Vec3>();
        args.step = EulerDt{minima_of(Stage::kPredictor), nullptr, devices_, clock};
    }
    return args;
}

// The walls' densities under mDBC, before the predictor's Forces; first the main stream waits
// for a measurement that reads them.
void CudaDevice::queue_wall_densities() {
    settle_wall_readings();
    if (walls_selected_) {
        cuda::mdbc_densities_of(mdbc_args(), fitted_walls(), fitted_wall_count_, stream_);
    } else {
        cuda::mdbc_densities(mdbc_args(), buffers_.ranges.near_begin(), buffers_.ranges.near_end(),
                             stream_);
    }
}

// Calls each send's `landed` once its copy is done (the host waits for it).
void CudaDevice::report_landed_sends(const ForceSends& sends, const ForcesEvents& events) {
    const ForceSend* side_send[2] = {&sends.left, &sends.right};
    for (int side = 0; side < 2; ++side) {
        if (!events.sent[side] || !side_send[side]->landed) continue;
        SPH_CUDA_CHECK(cudaEventSynchronize(events.send_end[side]));
        side_send[side]->landed();
    }
}

void CudaDevice::send(const ForceSend& send, int side, bool after_both_edges,
                      ForcesEvents& events) {
    events.sent[side] = send.count > 0;
    if (!events.sent[side]) return;
    // No receiver: host staging for another rank, free again once its message has left.
    auto* receiver = dynamic_cast<CudaDevice*>(send.receiver);
    if (send.receiver != nullptr && receiver == nullptr) {
        throw std::logic_error("CudaDevice::send: the receiver is not a GPU");
    }
    cudaStream_t s = edge_stream_[side];
    if (after_both_edges) SPH_CUDA_CHECK(cudaStreamWaitEvent(s, events.edge_done[1 - side], 0));
    // The receiver's last euler still reads the forces about to be overwritten.
    if (receiver != nullptr) SPH_CUDA_CHECK(cudaStreamWaitEvent(s, receiver->marker_, 0));
    SPH_CUDA_CHECK(cudaEventRecord(events.send_begin[side], s));
    if (send.to.ptr != nullptr) {  // else a message takes the forces from here
        PeerTransport::copy_async(send.to,
                                  force_buffer().offset(std::size_t(send.first) * sizeof(Vec4)),
                                  std::size_t(send.count) * sizeof(Vec4), s);
    }
    SPH_CUDA_CHECK(cudaEventRecord(events.send_end[side], s));
}

// Forces time for the balancer, and how much of each send overlapped the forces still running
// on the main stream (the central stripe, from the stage's start to its end).
void CudaDevice::time_stage(Stage stage) {
    const ForcesEvents& events = events_[index_of(stage)];
    auto since_begin = [&](cudaEvent_t e) {
        float ms = 0.0f;
        SPH_CUDA_CHECK(cudaEventElapsedTime(&ms, events.begin, e));
        return 1e-3 * ms;
    };
    forces_seconds_[index_of(stage)] = since_begin(events.end);
    times_.forces += forces_seconds_[index_of(stage)];
    const double central_end = since_begin(events.central_done);
    const double walls = events.walls ? since_begin(events.walls_done) : 0.0;
    times_.forces_centre += central_end - walls;  // the stripes start once the walls are done
    static const char* const edge_name[2] = {"forces edge left", "forces edge right"};
    static const char* const copy_name[2] = {"edge-force copy left", "edge-force copy right"};
    const bool traced = trace_clock_.trace != nullptr;
    if (events.walls) {
        times_.boundary += walls;
        if (traced) {
            trace_clock_.add(main_track_, "mDBC walls", "kernel", events.begin, events.walls_done);
        }
    }
    if (traced) {
        trace_clock_.add(main_track_, "forces centre", "kernel", events.walls_done,
                         events.central_done);
    }
    for (int side = 0; side < 2; ++side) {
        if (events.striped[side]) {
            times_.forces_edges += since_begin(events.edge_done[side]) - walls;
            if (traced) {
                trace_clock_.add(edge_track_[side], edge_name[side], "kernel", events.walls_done,
                                 events.edge_done[side]);
            }
        }
        if (!events.sent[side]) continue;
        if (traced) {
            trace_clock_.add(edge_track_[side], copy_name[side], "exchange",
                             events.send_begin[side], events.send_end[side]);
        }
        const double a = since_begin(events.send_begin[side]);
        const double b = since_begin(events.send_end[side]);
        times_.exchange_copy += b - a;
        times_.exchange_hidden += std::max(0.0, std::min(b, central_end) - std::max(a, 0.0));
    }
}

void CudaDevice::time_untimed_stage(Stage stage) {
    if (!stage_untimed_[index_of(stage)]) return;
    time_stage(stage);
    stage_untimed_[index_of(stage)] = false;
}

// For the stages forces() queued that read_minima has not timed: waits for them and reads them.
void CudaDevice::finish_stage_timing() {
    for (Stage stage : {Stage::kPredictor, Stage::kCorrector}) {
        if (!stage_untimed_[index_of(stage)]) continue;
        for (cudaStream_t s : {stream_, edge_stream_[0], edge_stream_[1]})
            SPH_CUDA_CHECK(cudaStreamSynchronize(s));
        time_untimed_stage(stage);
    }
    timer_.collect_finished(times_);
}

}  // namespace sph
