// The CUDA half of the kernel chain in a build without CUDA: its tests skip before calling it.
#include <stdexcept>

#include "kernel_chain.h"

namespace sph::testing {

BuiltLists cuda_build_lists(const std::vector<FixedPos>&, const ListRequest&,
                            const std::vector<Vec3>&, const std::vector<std::uint8_t>&) {
    throw std::logic_error("kernel chain: this build has no CUDA back end");
}

std::vector<Vec4> cuda_forces(const BuiltLists&, const SortedState&, const ListRequest&,
                              const SphParams&, bool) {
    throw std::logic_error("kernel chain: this build has no CUDA back end");
}

std::vector<Vec4> cuda_mdbc_densities(const BuiltLists&, const SortedState&, const ListRequest&,
                                      const SphParams&) {
    throw std::logic_error("kernel chain: this build has no CUDA back end");
}

}  // namespace sph::testing
