#pragma once
// Random numbers addressed by position. The generator built from
// (seed, stream, index) always yields the same sequence, so the random values
// of the tuple with global index j depend only on j, never on how the indices
// are split across processes or threads.
#include <cstdint>

namespace hpcdb {

// The splitmix64 finalizer: a bijection of 64-bit words with good avalanche.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return x;
}

class CounterRng {
 public:
  constexpr CounterRng(std::uint64_t seed, std::uint64_t stream, std::uint64_t index)
      // The start of the Weyl sequence is itself hashed, so that neighbouring
      // indices start at unrelated points instead of one step apart.
      : state_(mix64(mix64(seed ^ mix64(stream + kGamma)) + index * kGamma)) {}

  constexpr std::uint64_t next_u64() {
    state_ += kGamma;
    return mix64(state_);
  }

  // Uniform in [0, 1) with 53 random bits.
  constexpr double next_double() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

 private:
  static constexpr std::uint64_t kGamma = 0x9E3779B97F4A7C15ULL;
  std::uint64_t state_;
};

}  // namespace hpcdb
