#include "hpcdb/kernels/row_checksum.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "hpcdb/data/row_workload.hpp"

namespace hpcdb {
namespace {

std::vector<std::uint64_t> rows_of(std::size_t n, std::uint32_t row_bytes) {
  RowWorkloadSpec spec;
  spec.rows = n;
  spec.row_bytes = row_bytes;
  std::vector<std::uint64_t> rows(n * row_bytes / 8);
  generate_rows(spec, 0, n, rows.data());
  return rows;
}

RowDigest digest(const std::vector<std::uint64_t>& rows, std::uint32_t row_bytes) {
  return digest_rows(reinterpret_cast<const std::byte*>(rows.data()), rows.size() * 8 / row_bytes, row_bytes);
}

TEST(RowChecksum, IgnoresOrderAndAddsUpOverParts) {
  for (std::uint32_t width : {16u, 24u, 64u}) {
    std::vector<std::uint64_t> rows = rows_of(1001, width);
    const RowDigest whole = digest(rows, width);
    EXPECT_EQ(whole.rows, 1001u);
    // Reverse the row order.
    const std::size_t words = width / 8;
    std::vector<std::uint64_t> reversed;
    for (std::size_t i = 1001; i-- > 0;) reversed.insert(reversed.end(), rows.begin() + i * words, rows.begin() + (i + 1) * words);
    EXPECT_EQ(digest(reversed, width), whole);
    RowDigest parts = digest_rows(reinterpret_cast<const std::byte*>(rows.data()), 400, width);
    parts += digest_rows(reinterpret_cast<const std::byte*>(rows.data() + 400 * words), 601, width);
    EXPECT_EQ(parts, whole);
  }
}

TEST(RowChecksum, TheUnrolledPathEqualsTheRowHash) {
  std::vector<std::uint64_t> rows = rows_of(999, 16);
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < 999; ++i) sum += row_hash(rows.data() + 2 * i, 2);
  EXPECT_EQ(digest(rows, 16).checksum, sum);
}

TEST(RowChecksum, NoticesLostDuplicatedAndAlteredRows) {
  const std::vector<std::uint64_t> rows = rows_of(100, 16);
  const RowDigest good = digest(rows, 16);
  std::vector<std::uint64_t> dup = rows;
  dup[2] = dup[0];
  dup[3] = dup[1];  // row 1 replaced by a second copy of row 0: same count
  EXPECT_NE(digest(dup, 16).checksum, good.checksum);
  std::vector<std::uint64_t> swapped = rows;
  std::swap(swapped[1], swapped[3]);  // two rows exchange payloads
  EXPECT_NE(digest(swapped, 16).checksum, good.checksum);
  std::vector<std::uint64_t> flipped = rows;
  flipped[7] ^= 1u << 20;
  EXPECT_NE(digest(flipped, 16).checksum, good.checksum);
}

}  // namespace
}  // namespace hpcdb
