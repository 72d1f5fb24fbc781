#include "driver/rank_reports.h"

#include "byte_codec.h"

namespace sph {

// Every rank runs the same build, so plain structs travel as their bytes.
std::vector<DeviceReport> gather_device_reports(const std::vector<DeviceReport>& mine,
                                                const Ranks& ranks) {
    ByteWriter bytes;
    bytes.put(std::uint64_t(mine.size()));
    for (const DeviceReport& r : mine) {
        bytes.put_string(r.description);
        bytes.put(r.kernels);
        bytes.put(r.worker);
        bytes.put(r.first_slice);
        bytes.put(r.end_slice);
        bytes.put(r.memory_bytes);
        bytes.put(std::uint64_t(r.memory_parts.size()));
        for (const MemoryPart& part : r.memory_parts) {
            bytes.put_string(part.name);
            bytes.put(part.bytes);
        }
    }
    std::vector<DeviceReport> reports;
    for (const std::string& rank : ranks.all_gather(bytes.bytes())) {
        ByteReader from(rank, "a rank's device reports");
        const auto devices = from.take<std::uint64_t>("devices");
        for (std::uint64_t d = 0; d < devices; ++d) {
            DeviceReport r;
            r.description = from.take_string("description");
            r.kernels = from.take<KernelTimes>("kernel times");
            r.worker = from.take<WorkerStats>("worker stats");
            r.first_slice = from.take<int>("first slice");
            r.end_slice = from.take<int>("end slice");
            r.memory_bytes = from.take<std::size_t>("memory");
            const auto parts = from.take<std::uint64_t>("memory parts");
            for (std::uint64_t k = 0; k < parts; ++k) {
                MemoryPart part;
                part.name = from.take_string("memory part");
                part.bytes = from.take<std::size_t>("memory part bytes");
                r.memory_parts.push_back(part);
            }
            reports.push_back(r);
        }
    }
    return reports;
}

}  // namespace sph
