#pragma once
// An order-independent checksum of a multiset of rows: the sum, modulo 2^64,
// of a hash of every row. Every word of a row enters its hash through a
// multiplication, so a lost, duplicated or altered row (or two rows that
// swapped payloads) changes the sum, whatever order rows arrive in.
#include <cstddef>
#include <cstdint>

namespace hpcdb {

struct RowDigest {
  std::uint64_t rows = 0;
  std::uint64_t checksum = 0;
  RowDigest& operator+=(const RowDigest& other) {
    rows += other.rows;
    checksum += other.checksum;
    return *this;
  }
  friend bool operator==(const RowDigest&, const RowDigest&) = default;
};

constexpr std::uint64_t kRowHashFirst = 0x9E3779B97F4A7C15ULL;
constexpr std::uint64_t kRowHashNext = 0xD6E8FEB86659FD93ULL;

// Hash of one row of `words` 64-bit words.
inline std::uint64_t row_hash(const std::uint64_t* row, std::size_t words) {
  std::uint64_t h = row[0] * kRowHashFirst;
  for (std::size_t i = 1; i < words; ++i) h = (h ^ row[i]) * kRowHashNext;
  return h ^ (h >> 29);
}

// Count and checksum of `rows` rows of `row_bytes` bytes (a multiple of 8).
inline RowDigest digest_rows(const std::byte* data, std::size_t rows, std::size_t row_bytes) {
  const auto* words = reinterpret_cast<const std::uint64_t*>(data);
  const std::size_t per_row = row_bytes / 8;
  std::uint64_t sum = 0;
  if (per_row == 2) {
    // The common 16-byte case, unrolled so that the multiplications of
    // neighbouring rows overlap.
    std::uint64_t sum2 = 0;
    std::size_t i = 0;
    for (; i + 2 <= rows; i += 2) {
      sum += row_hash(words + 2 * i, 2);
      sum2 += row_hash(words + 2 * i + 2, 2);
    }
    if (i < rows) sum += row_hash(words + 2 * i, 2);
    sum += sum2;
  } else {
    for (std::size_t i = 0; i < rows; ++i) sum += row_hash(words + i * per_row, per_row);
  }
  return {rows, sum};
}

}  // namespace hpcdb
