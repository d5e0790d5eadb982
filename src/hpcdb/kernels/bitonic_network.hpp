#pragma once
// The parts of the AVX2 bitonic sorting networks that the 64-bit sort
// (sorted_runs.cpp) and the 32-bit sort (key_field_sort.cpp) share.
//
// A "lane set" L describes one register type and value width:
//   L::Reg                         the register type;
//   L::min_max(a, b)               lane-wise a = min, b = max;
//   L::clean_pair<DescA, DescB>(a, b)
//                                  sorts the bitonic register a and the
//                                  bitonic register b, each ascending or
//                                  descending.
#include <immintrin.h>

#define HPCDB_AVX2 __attribute__((target("avx2")))

namespace hpcdb::bitonic {

// x ascending, d descending (R registers each; d[0] holds the largest) ->
// x the smaller half ascending, d the larger half descending. Keeping the
// larger half descending lets a merge loop carry it into its next step
// without reversing it.
template <class L, int R>
HPCDB_AVX2 inline void merge(typename L::Reg x[R], typename L::Reg d[R]) {
  for (int k = 0; k < R; ++k) L::min_max(x[k], d[k]);
  for (int distance = R / 2; distance > 0; distance /= 2) {
    for (int k = 0; k < R; ++k) {
      if (k & distance) continue;
      L::min_max(x[k], x[k + distance]);
      L::min_max(d[k + distance], d[k]);
    }
  }
  if constexpr (R == 1) {
    L::template clean_pair<false, true>(x[0], d[0]);
  } else {
    for (int k = 0; k < R; k += 2) {
      L::template clean_pair<false, false>(x[k], x[k + 1]);
      L::template clean_pair<true, true>(d[k], d[k + 1]);
    }
  }
}

// The first two stages of clean_pair on 256-bit registers: compare-exchanges
// at the distance of 128 bits, then of 64 bits, within a and within b. The
// two registers are regrouped at each distance so that every compare-
// exchange pairs two registers and yields a full register of useful minima
// and maxima (instead of comparing a register with a shuffled copy of
// itself, half of whose results are thrown away); the regrouping moves whole
// 128-bit halves or stays within them, both cheap on Zen, unlike a full
// lane-crossing permutation.
template <class L, bool DescendingA, bool DescendingB>
HPCDB_AVX2 inline void clean_halves_and_quarters(__m256i& a, __m256i& b) {
  // Distance 128 bits: low = a.lo | b.lo, high = a.hi | b.hi.
  __m256i low = _mm256_inserti128_si256(a, _mm256_castsi256_si128(b), 1);
  __m256i high = _mm256_inserti128_si256(b, _mm256_extracti128_si256(a, 1), 0);
  L::min_max(low, high);
  a = DescendingA ? _mm256_inserti128_si256(high, _mm256_castsi256_si128(low), 1)
                  : _mm256_inserti128_si256(low, _mm256_castsi256_si128(high), 1);
  b = DescendingB ? _mm256_inserti128_si256(low, _mm256_extracti128_si256(high, 1), 0)
                  : _mm256_inserti128_si256(high, _mm256_extracti128_si256(low, 1), 0);
  // Distance 64 bits, per 128-bit half: even = a's first 64 bits, b's
  // first 64 bits; odd = the second ones.
  __m256i even = _mm256_unpacklo_epi64(a, b);
  __m256i odd = _mm256_unpackhi_epi64(a, b);
  L::min_max(even, odd);
  a = DescendingA ? _mm256_unpacklo_epi64(odd, even) : _mm256_unpacklo_epi64(even, odd);
  b = DescendingB ? _mm256_unpackhi_epi64(odd, even) : _mm256_unpackhi_epi64(even, odd);
}

}  // namespace hpcdb::bitonic
