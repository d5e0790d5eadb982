#pragma once
// 64-bit hashing of key values: strings by their bytes (the same for string
// and large_string), integers by their value as a signed 64-bit number
// (uint64 by its bits), and several key columns combined in order. Equal
// values always hash equally; unequal ones collide with probability 2^-64
// (the joins check equality on the values anyway).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hpcdb/data/counter_rng.hpp"  // mix64

namespace hpcdb {

inline std::uint64_t hash_integer(std::uint64_t value) { return mix64(value + 0x9E3779B97F4A7C15ULL); }

// Eight bytes at a time; the tail and the length go into the last word.
inline std::uint64_t hash_bytes(const std::uint8_t* data, std::size_t n) {
  std::uint64_t h = 0x6A09E667F3BCC909ULL ^ (static_cast<std::uint64_t>(n) * 0x9E3779B97F4A7C15ULL);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, data + i, 8);
    h = (h ^ (word * 0xC2B2AE3D27D4EB4FULL)) * 0x9FB21C651E98DF25ULL;
    h ^= h >> 29;
  }
  std::uint64_t tail = 0;
  if (i < n) std::memcpy(&tail, data + i, n - i);
  h = (h ^ (tail * 0xC2B2AE3D27D4EB4FULL)) * 0x9FB21C651E98DF25ULL;
  return mix64(h);
}

// The hash of a key so far combined with the next column's value hash.
inline std::uint64_t combine_hashes(std::uint64_t so_far, std::uint64_t next) {
  return mix64(so_far * 0x9E3779B97F4A7C15ULL + next);
}

}  // namespace hpcdb
