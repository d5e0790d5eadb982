#pragma once
// TPC-C's random functions (clause 2.1.5-2.1.6, 4.3.2): uniform integers,
// NURand(A, x, y) with its C constants, random alphanumeric and numeric
// strings, zip codes, the "ORIGINAL" marker and customer last names from the
// syllable table. All take any 64-bit generator; loading uses SplitMix64,
// which is fast and gives every warehouse its own reproducible stream.
#include <cstdint>

namespace hpcdb::tpcc {

class SplitMix64 {
 public:
  using result_type = std::uint64_t;
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

// Uniform in [lo, hi] (the bias of the multiply-shift is below 2^-40 for TPC-C's ranges).
template <class Rng>
std::int64_t uniform(Rng& rng, std::int64_t lo, std::int64_t hi) {
  __extension__ typedef unsigned __int128 Wide;
  const auto range = static_cast<Wide>(hi - lo + 1);
  return lo + static_cast<std::int64_t>((static_cast<Wide>(rng()) * range) >> 64);
}

// The C constants of NURand (2.1.6): C_LAST for loading, and for running one
// whose distance to it lies in [65, 119] without being 96 or 112 (2.1.6.1);
// C_ID and OL_I_ID. Derived from the run's seed, so every rank has the same.
struct NurandConstants {
  int c_last_load = 0;
  int c_last_run = 0;
  int c_id = 0;
  int ol_i_id = 0;
  static NurandConstants from_seed(std::uint64_t seed);
};

// NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x
template <class Rng>
int nurand(Rng& rng, int a, int x, int y, int c) {
  return static_cast<int>(((uniform(rng, 0, a) | uniform(rng, x, y)) + c) % (y - x + 1) + x);
}

// The last name of number 0..999: three syllables from BAR, OUGHT, ABLE,
// PRI, PRES, ESE, ANTI, CALLY, ATION, EING by its digits (4.3.2.3).
void last_name(int number, char (&out)[16]);

// A random a-string (letters and digits) of length [min, max] in `out`
// (capacity bytes, padded with zero bytes); returns its length. Each 64-bit
// draw gives two characters (the multiply-shift of each 32-bit half).
template <class Rng>
int alphanumeric(Rng& rng, char* out, int capacity, int min, int max) {
  static constexpr char kChars[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const int length = static_cast<int>(uniform(rng, min, max));
  for (int i = 0; i < length; i += 2) {
    const std::uint64_t bits = rng();
    out[i] = kChars[((bits & 0xffffffffu) * 62) >> 32];
    if (i + 1 < length) out[i + 1] = kChars[((bits >> 32) * 62) >> 32];
  }
  for (int i = length; i < capacity; ++i) out[i] = '\0';
  return length;
}

// A random n-string of exactly `length` digits.
template <class Rng>
void numeric(Rng& rng, char* out, int length) {
  for (int i = 0; i < length; ++i) out[i] = static_cast<char>('0' + uniform(rng, 0, 9));
}

// A zip code: 4 random digits and "11111" (4.3.2.7).
template <class Rng>
void zip(Rng& rng, char (&out)[9]) {
  numeric(rng, out, 4);
  for (int i = 4; i < 9; ++i) out[i] = '1';
}

// Writes "ORIGINAL" at a random position of a data field of `length` characters (length >= 8).
template <class Rng>
void mark_original(Rng& rng, char* data, int length) {
  const int at = static_cast<int>(uniform(rng, 0, length - 8));
  for (int i = 0; i < 8; ++i) data[at + i] = "ORIGINAL"[i];
}

// Whether a data field contains "ORIGINAL".
bool contains_original(const char* data, int capacity);

}  // namespace hpcdb::tpcc
