// Plain values to and from bytes (little-endian, as the machines this builds for are), with every
// read checked against what is left: the binary files' readers never read past their input,
// however damaged it is.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "sectioned_file.h"

namespace sph {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the binary formats are little-endian");

class ByteWriter {
public:
    template <class T>
    void put(const T& value) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes_.append(reinterpret_cast<const char*>(&value), sizeof value);
    }
    void put_string(const std::string& text) {
        put(std::uint64_t(text.size()));
        bytes_ += text;
    }
    template <class T>
    void put_vector(const std::vector<T>& values) {
        static_assert(std::is_trivially_copyable_v<T>);
        put(std::uint64_t(values.size()));
        if (!values.empty()) {
            bytes_.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
        }
    }
    std::string& bytes() { return bytes_; }

private:
    std::string bytes_;
};

// Reads `bytes`, which belong to `what` (a file and section, for the messages); a read past the
// end throws CorruptFile saying how much was wanted and how much was left.
class ByteReader {
public:
    ByteReader(const std::string& bytes, std::string what)
        : bytes_(bytes), what_(std::move(what)) {}

    template <class T>
    T take(const char* item) {
        static_assert(std::is_trivially_copyable_v<T>);
        T value;
        std::memcpy(&value, need(sizeof value, item), sizeof value);
        at_ += sizeof value;
        return value;
    }
    std::string take_bytes(std::size_t size, const char* item) {
        const char* from = need(size, item);
        at_ += size;
        return std::string(from, size);
    }
    std::string take_string(const char* item) { return take_bytes(take_count(1, item), item); }
    template <class T>
    std::vector<T> take_vector(const char* item) {
        const std::size_t n = take_count(sizeof(T), item);
        std::vector<T> values(n);
        // n = 0: an empty vector's data() may be null, and memcpy's arguments must not be
        // (the fuzzer's first finding).
        if (n > 0) std::memcpy(values.data(), need(n * sizeof(T), item), n * sizeof(T));
        at_ += n * sizeof(T);
        return values;
    }
    // A count of items of `item_bytes` each that must fit in what is left.
    std::size_t take_count(std::size_t item_bytes, const char* item) {
        const auto n = take<std::uint64_t>(item);
        if (item_bytes > 0 && n > left() / item_bytes) {
            fail(std::string("truncated or corrupted: ") + item + " claims " + std::to_string(n) +
                 " items of " + std::to_string(item_bytes) + " bytes, " + std::to_string(left()) +
                 " bytes are left");
        }
        return std::size_t(n);
    }
    std::size_t left() const { return bytes_.size() - at_; }
    [[noreturn]] void fail(const std::string& why) const { throw CorruptFile(what_ + ": " + why); }

private:
    const char* need(std::size_t size, const char* item) const {
        if (size > left()) {
            fail(std::string("truncated: ") + item + " needs " + std::to_string(size) +
                 " bytes at offset " + std::to_string(at_) + ", " + std::to_string(left()) +
                 " are left");
        }
        return bytes_.data() + at_;
    }
    const std::string& bytes_;
    std::string what_;
    std::size_t at_ = 0;
};

}  // namespace sph
