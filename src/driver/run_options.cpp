#include "driver/run_options.h"

namespace sph {

std::string to_string(BackendChoice backend) {
    switch (backend) {
        case BackendChoice::kCpu:
            return "cpu";
        case BackendChoice::kCuda:
            return "cuda";
        default:
            return "auto";
    }
}

std::string DeviceSelection::gpu_list() const {
    std::string text;
    for (int id : gpu_ids) text += (text.empty() ? "" : ",") + std::to_string(id);
    return text;
}

}  // namespace sph
