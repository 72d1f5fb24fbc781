// The two particle records every back end keeps, and the ranges of the current one: the particles
// the kernels work on, and where the next ones are assembled at a rebuild (the sort's gather,
// migration, external slices). Between rebuilds the incoming arrays are free, and their pos and
// velrho hold the predicted state of the predictor-corrector.
#pragma once

#include <utility>

#include "devices/device.h"

namespace sph {

template <template <class> class Array>
struct ParticleBuffers {
    ParticleRecord<Array> current, incoming;
    LocalRanges ranges{};

    // The incoming arrays, now holding `next`, become the current ones.
    void commit_incoming(const LocalRanges& next) {
        std::swap(current, incoming);
        ranges = next;
    }

    // Where each field of `record` lives, for the transport; `place(array)` gives one Endpoint.
    template <class Place>
    static ParticleEndpoints endpoints_of(ParticleRecord<Array>& record, Place place) {
        ParticleEndpoints e;
        for_each_field([&place](auto, auto& array, Endpoint& to) { to = place(array); }, record, e);
        return e;
    }
};

}  // namespace sph
