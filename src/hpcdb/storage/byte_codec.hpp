#pragma once
// Little-endian encoding of the batch interface's messages: a writer that
// appends values to a byte string, and a reader that checks every read
// against the message's end (a malformed or truncated message is an Error
// naming what was being read, never a read past the buffer).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

class ByteWriter {
 public:
  template <class T>
  void put(T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &v, sizeof(T));
  }
  template <class T>
  void put_span(std::span<const T> values) {
    put<std::uint32_t>(static_cast<std::uint32_t>(values.size()));
    const auto at = bytes_.size();
    bytes_.resize(at + values.size_bytes());
    if (!values.empty()) std::memcpy(bytes_.data() + at, values.data(), values.size_bytes());
  }
  const std::vector<std::byte>& bytes() const { return bytes_; }
  std::size_t size() const { return bytes_.size(); }

 private:
  std::vector<std::byte> bytes_;
};

class ByteReader {
 public:
  ByteReader(std::span<const std::byte> bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    need(sizeof(T));
    T v;
    std::memcpy(&v, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return v;
  }
  template <class T>
  std::vector<T> get_vector(std::size_t most = 1u << 28) {
    const auto n = get<std::uint32_t>();
    if (n > most) fail("a count of " + std::to_string(n));
    need(n * sizeof(T));
    std::vector<T> v(n);
    if (n > 0) std::memcpy(v.data(), bytes_.data() + at_, n * sizeof(T));
    at_ += n * sizeof(T);
    return v;
  }
  std::size_t remaining() const { return bytes_.size() - at_; }
  void expect_end() const {
    if (at_ != bytes_.size()) fail(std::to_string(bytes_.size() - at_) + " unexpected bytes at the end");
  }

 private:
  void need(std::size_t n) const {
    if (n > bytes_.size() - at_) fail("it ends " + std::to_string(n - (bytes_.size() - at_)) + " bytes too early");
  }
  [[noreturn]] void fail(const std::string& why) const { throw Error("malformed " + what_ + ": " + why); }
  std::span<const std::byte> bytes_;
  std::string what_;
  std::size_t at_ = 0;
};

}  // namespace hpcdb
