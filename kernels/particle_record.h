// The particle record: the fields that make up one particle and travel with it (set-up, upload
// and download, the sort's gather, migration and external slices between devices, output).
//
// The fields are listed once, in SPH_PARTICLE_FIELDS; every copy, gather, allocation and byte
// count is derived from that list (GPUSPH's define_buffers.h and Cabana's member type lists do the
// same), so adding a field is one line here. A ParticleRecord<Array> holds each field as an
// Array<field type>: std::vector on the host, plain pointers in kernel arguments, device buffers
// in a back end; for_each_field walks the fields of one or more records side by side.
//
// A position is held in fixed point (fixed_position.h: steps of the run's PositionFrame). Its w
// is its particle's type as a float (0, 1, 2: particle_type.h), so that Forces
// reads a neighbour's type with its position, not with a load of its own. Set-up writes it
// (HostParticles::add), and so does every rebuild's gather, from the type array, which stays the
// authority.
//
// A field a run does not read is not kept on the devices at all (FieldKept): to_ghost, 24 of a
// particle's bytes in the two copies a device holds, is read by mDBC alone. A device leaves such
// a field's arrays empty (null pointers in the kernels' arguments), and copies skip it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "fixed_position.h"
#include "vec.h"

// FIELD(type, name, kept) for each field, in memory order; `kept` is a FieldKept.
#define SPH_PARTICLE_FIELDS(FIELD)                                                  \
    FIELD(FixedPos, pos, kAlways)      /* x, y, z [steps]; w the type, see below */ \
    FIELD(Vec4, velrho, kAlways)       /* vx, vy, vz [m/s]; w density */            \
    FIELD(std::uint32_t, id, kAlways)  /* index at set-up; sort tie-break */        \
    FIELD(std::uint8_t, type, kAlways) /* ParticleType */                           \
    FIELD(Vec3, to_ghost, kUnderMdbc)  /* boundary: offset to its mDBC ghost node [m] */

namespace sph {

// Which runs keep a field on the devices (the host's particles always have every field).
enum class FieldKept { kAlways, kUnderMdbc };

template <template <class> class Array>
struct ParticleRecord {
#define SPH_RECORD_MEMBER(T, name, kept) Array<T> name;
    SPH_PARTICLE_FIELDS(SPH_RECORD_MEMBER)
#undef SPH_RECORD_MEMBER
};

// What a visitor learns of a field besides its arrays: its element type, size, name and which
// runs keep it on the devices.
template <class T>
struct Field {
    using type = T;
    static constexpr std::size_t bytes = sizeof(T);
    const char* name;
    FieldKept kept;
};

// Calls f(Field<T>{name}, first.name, rest.name...) for every field, in the order listed. Host
// code only (kernels expand SPH_PARTICLE_FIELDS themselves).
template <class F, class First, class... Rest>
inline void for_each_field(F&& f, First&& first, Rest&&... rest) {
#define SPH_VISIT_FIELD(T, name, kept) \
    f(Field<T>{#name, FieldKept::kept}, first.name, rest.name...);
    SPH_PARTICLE_FIELDS(SPH_VISIT_FIELD)
#undef SPH_VISIT_FIELD
}

// Bytes of one particle's whole record, and of the fields only mDBC runs keep on the devices.
#define SPH_FIELD_BYTES(T, name, kept) +sizeof(T)
constexpr std::size_t kParticleRecordBytes = 0 SPH_PARTICLE_FIELDS(SPH_FIELD_BYTES);
#undef SPH_FIELD_BYTES
#define SPH_MDBC_FIELD_BYTES(T, name, kept) \
    +(FieldKept::kept == FieldKept::kUnderMdbc ? sizeof(T) : 0)
constexpr std::size_t kMdbcOnlyRecordBytes = 0 SPH_PARTICLE_FIELDS(SPH_MDBC_FIELD_BYTES);
#undef SPH_MDBC_FIELD_BYTES

template <class T>
using Pointer = T*;
template <class T>
using ConstPointer = const T*;
// Kernel arguments: where each field of a particle array lives.
using ParticlePointers = ParticleRecord<Pointer>;
using ConstParticlePointers = ParticleRecord<ConstPointer>;

}  // namespace sph
