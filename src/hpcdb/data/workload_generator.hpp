#pragma once
// Synthetic join inputs R (inner, primary keys) and S (outer, foreign keys),
// generated piecewise: any process can generate any index range of either
// relation on its own, and the tuples do not depend on how the index ranges
// are split.
//
// The contract, which the join tests rely on:
//
// Inner tuple g, 0 <= g < |R|:
//   key = permR(g), rid = g,
//   where permR is a pseudo-random bijection of [0, |R|) chosen by the seed.
//   The inner keys are exactly {0, ..., |R| - 1}, each once, in shuffled
//   order; a process holding indices [a, b) holds the RIDs [a, b).
//
// Outer tuple j, 0 <= j < |S|:
//   rid = j, slot s = permS(j) (another bijection, of [0, |S|)),
//   m = expected_matches(spec) = (|R| == 0 ? 0 : llround(selectivity * |S|)).
//   If s < m the tuple matches:
//     key = s mod |R|                       if zipf_theta == 0,
//     key = Zipf(|R|, zipf_theta) rank      otherwise, drawn with the random
//                                           stream of index j (key 0 is the
//                                           most frequent);
//   else key = |R| + s, which is no inner key.
//   With a Gaussian spread (gaussian_sigma > 0) a matching tuple's key is
//   instead floor(x) for x normal around |R| / 2 with deviation
//   gaussian_sigma * |R|, drawn again (same stream) until it lies in
//   [0, |R|).
//
// Key spacing (both relations): every key above is multiplied by
// 2^key_spacing_bits, so with 8 all keys are congruent modulo 2^8, which
// defeats any partitioning on the low key bits.
//   So exactly m outer tuples match, each exactly one inner tuple, whatever
//   theta is; with theta == 0 every inner key is matched floor(m / |R|) or
//   ceil(m / |R|) times.
//
// Hence the join result has exactly expected_matches(spec) pairs.
#include <cstdint>

#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

struct WorkloadSpec {
  std::uint64_t inner_tuples = 0;  // |R|
  std::uint64_t outer_tuples = 0;  // |S|
  double zipf_theta = 0.0;         // 0 = uniform foreign keys
  double selectivity = 1.0;        // fraction of outer tuples that find a match, in [0,1]
  std::uint64_t seed = 1;
  double gaussian_sigma = 0.0;     // > 0: normal foreign keys, deviation as a fraction of |R|
  unsigned key_spacing_bits = 0;   // keys multiplied by 2^bits (8: all congruent modulo 2^8)
};

// Throws UsageError for a selectivity outside [0, 1], a negative, infinite or
// NaN theta or sigma, both Zipf and Gaussian keys, a spacing above 32 bits,
// or |R| + |S| (times the spacing) beyond the 64-bit key space.
void validate(const WorkloadSpec& spec);

// The number of outer tuples that match: llround(selectivity * |S|), or 0 if R is empty.
std::uint64_t expected_matches(const WorkloadSpec& spec);

// Write the tuples with global indices [first_index, first_index + count) to
// out[0 .. count). The spec is validated; a range beyond the relation's size
// is a UsageError.
void generate_inner(const WorkloadSpec& spec, std::uint64_t first_index, std::uint64_t count, Tuple* out);
void generate_outer(const WorkloadSpec& spec, std::uint64_t first_index, std::uint64_t count, Tuple* out);

}  // namespace hpcdb
