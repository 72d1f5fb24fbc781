// libFuzzer target: the checkpoint reader (io/sectioned_file.h, checkpoint/checkpoint_file.h).
// Whatever the bytes, it either returns a state or throws CorruptFile: any other exception, a
// crash, a leak or an overflow (AddressSanitizer, UBSan) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "checkpoint/checkpoint_file.h"
#include "sectioned_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const sph::RunState state = sph::parse_checkpoint(bytes, "fuzz input");
        (void)state;
    } catch (const sph::CorruptFile&) {
        // Refused with a reason: what the reader must do with damaged input.
    }
    return 0;
}
