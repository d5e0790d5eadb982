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
//
// merge_sorted() is the merge loop of both sorts, on a "merge set" M:
//   M::Value, M::kStep                  the value type, values per step;
//   M::Block                            kStep values in registers;
//   M::top                              the padding: no smaller than any
//                                       value (in M's representation);
//   M::load(p), M::store(p, block)      (store may convert the
//                                       representation back);
//   M::reversed(block), M::merge(x, d)  as merge() above;
//   M::head_le(a, b)                    a <= b in M's representation;
//   M::copy(out, in, n)                 as n stores would.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hpcdb/core/cpu_dispatch.hpp"

namespace hpcdb::bitonic {

// x ascending, d descending (R registers each; d[0] holds the largest) ->
// x the smaller half ascending, d the larger half descending. Keeping the
// larger half descending lets a merge loop carry it into its next step
// without reversing it.
template <class L, int R>
HPCDB_TARGET_AVX2 inline void merge(typename L::Reg x[R], typename L::Reg d[R]) {
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
HPCDB_TARGET_AVX2 inline void clean_halves_and_quarters(__m256i& a, __m256i& b) {
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

// Merges sorted a[0, na) and b[0, nb) into out, kStep values per step, to
// the end: each input is read as if padded with M::top, so the last partial
// block of each goes through the same network and no scalar tail is needed;
// only the first na + nb outputs are written. (A padding value that ties
// with a real one has the same bits, so which of them is written does not
// matter.)
template <class M>
HPCDB_TARGET_AVX2 void merge_sorted(const typename M::Value* a, std::size_t na, const typename M::Value* b, std::size_t nb,
                             typename M::Value* out) {
  using Value = typename M::Value;
  using Block = typename M::Block;
  constexpr std::size_t W = M::kStep;
  if (na == 0 || nb == 0) {
    M::copy(out, na > 0 ? a : b, na + nb);
    return;
  }
  // The partial last block of each input, padded; past the end, all padding.
  alignas(32) Value tail_a[W], tail_b[W], padding[W], last[W];
  const std::size_t full_a = na - na % W, full_b = nb - nb % W;
  for (std::size_t k = 0; k < W; ++k) {
    tail_a[k] = full_a + k < na ? a[full_a + k] : M::top;
    tail_b[k] = full_b + k < nb ? b[full_b + k] : M::top;
    padding[k] = M::top;
  }
  auto block_a = [&](std::size_t i) { return i < full_a ? a + i : i < na ? tail_a : padding; };
  auto block_b = [&](std::size_t j) { return j < full_b ? b + j : j < nb ? tail_b : padding; };
  Block x = M::load(block_a(0));
  Block larger = M::reversed(M::load(block_b(0)));
  std::size_t i = W, j = W;
  const std::size_t total = na + nb;
  std::size_t emitted = 0;
  // While both inputs still have a full block to load, the next block is
  // chosen without a branch: which head is smaller is a coin toss on
  // random data.
  while (i < full_a && j < full_b) {
    M::merge(x, larger);
    M::store(out + emitted, x);
    emitted += W;
    const std::uintptr_t take_a = 0 - static_cast<std::uintptr_t>(M::head_le(a[i], b[j]));
    const auto* next = reinterpret_cast<const Value*>((reinterpret_cast<std::uintptr_t>(a + i) & take_a) |
                                                      (reinterpret_cast<std::uintptr_t>(b + j) & ~take_a));
    i += W & take_a;
    j += W & ~take_a;
    x = M::load(next);
  }
  for (;;) {
    M::merge(x, larger);
    Value* to = emitted + W <= total ? out + emitted : last;
    M::store(to, x);
    if (emitted + W >= total) {
      if (to == last) std::memcpy(out + emitted, last, (total - emitted) * sizeof(Value));
      return;
    }
    emitted += W;
    // Next comes the block of the input with the smaller head.
    const Value head_a = i < na ? a[i] : M::top;
    const Value head_b = j < nb ? b[j] : M::top;
    const Value* next;
    if (M::head_le(head_a, head_b)) {
      next = block_a(i);
      i += W;
    } else {
      next = block_b(j);
      j += W;
    }
    x = M::load(next);
  }
}

}  // namespace hpcdb::bitonic
