#pragma once
// A pseudo-random bijection of [0, n), evaluated independently for each index
// in constant expected time and without any table, so that every process can
// compute its share of a shuffled sequence on its own.
//
// Indices are encrypted with a 4-round Feistel network over the smallest
// power-of-two domain 2^b >= n; the two halves have floor(b/2) and ceil(b/2)
// bits, and each round xors one half with a hash of the other, which is
// invertible for unequal halves too. Outputs >= n are encrypted again
// ("cycle-walking") until they fall into [0, n); since 2^b < 2n, that takes
// fewer than two encryptions on average.
#include <algorithm>
#include <array>
#include <cstdint>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/data/counter_rng.hpp"

namespace hpcdb {

class IndexPermutation {
 public:
  IndexPermutation(std::uint64_t n, std::uint64_t seed) : n_(n) {
    // At least 2 bits, so that both halves take part even for n <= 2.
    const unsigned bits = std::max(2u, bit_width_of(n <= 1 ? 0 : n - 1));
    lo_bits_ = bits / 2;
    lo_mask_ = low_mask(lo_bits_);
    hi_mask_ = low_mask(bits - lo_bits_);
    CounterRng rng(seed, 0x7065726D75746531ULL, 0);
    for (auto& key : keys_) key = rng.next_u64();
  }

  std::uint64_t size() const { return n_; }

  // The image of i; requires i < size().
  std::uint64_t operator()(std::uint64_t i) const {
    if (n_ == 0) return i;  // no valid argument exists; avoid walking forever
    std::uint64_t x = encrypt(i);
    while (x >= n_) x = encrypt(x);
    return x;
  }

 private:
  static std::uint64_t round_function(std::uint64_t half, std::uint64_t key) {
    std::uint64_t h = (half ^ key) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ULL;
    h ^= h >> 32;
    return h;
  }

  std::uint64_t encrypt(std::uint64_t x) const {
    std::uint64_t lo = x & lo_mask_;
    std::uint64_t hi = x >> lo_bits_;
    hi ^= round_function(lo, keys_[0]) & hi_mask_;
    lo ^= round_function(hi, keys_[1]) & lo_mask_;
    hi ^= round_function(lo, keys_[2]) & hi_mask_;
    lo ^= round_function(hi, keys_[3]) & lo_mask_;
    return (hi << lo_bits_) | lo;
  }

  std::uint64_t n_;
  unsigned lo_bits_ = 0;
  std::uint64_t lo_mask_ = 0;
  std::uint64_t hi_mask_ = 0;
  std::array<std::uint64_t, 4> keys_{};
};

}  // namespace hpcdb
