#pragma once
// The join's input tuple: a 64-bit key and a 64-bit record id (RID), 16 bytes,
// stored little-endian in files exactly as in memory.
#include <cstdint>
#include <type_traits>

namespace hpcdb {

struct Tuple {
  std::uint64_t key;
  std::uint64_t rid;
  friend bool operator==(const Tuple&, const Tuple&) = default;
};
static_assert(sizeof(Tuple) == 16 && std::is_trivially_copyable_v<Tuple>);

// One result pair of a join.
struct MatchPair {
  std::uint64_t rid_r;
  std::uint64_t rid_s;
  friend bool operator==(const MatchPair&, const MatchPair&) = default;
  friend bool operator<(const MatchPair& a, const MatchPair& b) {
    return a.rid_r != b.rid_r ? a.rid_r < b.rid_r : a.rid_s < b.rid_s;
  }
};

// The join checksum, computable by any system from the result pairs:
// the sum over all pairs of rid_r * 0x9E3779B97F4A7C15 + rid_s, modulo 2^64.
constexpr std::uint64_t kChecksumMultiplier = 0x9E3779B97F4A7C15ULL;
constexpr std::uint64_t pair_checksum(std::uint64_t rid_r, std::uint64_t rid_s) {
  return rid_r * kChecksumMultiplier + rid_s;
}

}  // namespace hpcdb
