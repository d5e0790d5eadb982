#include "hpcdb/data/workload_generator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <limits>
#include <optional>

#include "hpcdb/core/error.hpp"
#include "hpcdb/data/counter_rng.hpp"
#include "hpcdb/data/index_permutation.hpp"
#include "hpcdb/data/zipf_sampler.hpp"

namespace hpcdb {

namespace {

// Distinct constants keep the three random choices of one seed independent.
constexpr std::uint64_t kInnerPermutationSalt = 0x696E6E65725F7065ULL;
constexpr std::uint64_t kOuterPermutationSalt = 0x6F757465725F7065ULL;
constexpr std::uint64_t kOuterKeyStream = 0x6F757465725F6B65ULL;

void check_range(const char* relation, std::uint64_t size, std::uint64_t first_index, std::uint64_t count) {
  if (first_index > size || count > size - first_index) {
    throw UsageError(fmt::format("cannot generate {} tuples of {} starting at index {}: {} has only {} tuples", count,
                                 relation, first_index, relation, size));
  }
}

}  // namespace

void validate(const WorkloadSpec& spec) {
  if (!(spec.selectivity >= 0.0 && spec.selectivity <= 1.0)) {
    throw UsageError(fmt::format("selectivity must be between 0 and 1, not {}", spec.selectivity));
  }
  if (!(spec.zipf_theta >= 0.0) || !std::isfinite(spec.zipf_theta)) {
    throw UsageError(
        fmt::format("the Zipf exponent must be 0 (uniform) or a positive finite number, not {}", spec.zipf_theta));
  }
  if (!(spec.gaussian_sigma >= 0.0) || !std::isfinite(spec.gaussian_sigma)) {
    throw UsageError(fmt::format("the Gaussian deviation must be a positive finite fraction of |R|, not {}",
                                 spec.gaussian_sigma));
  }
  if (spec.gaussian_sigma > 0.0 && spec.zipf_theta > 0.0) {
    throw UsageError("foreign keys are either Zipf or Gaussian, not both");
  }
  if (spec.key_spacing_bits > 32) {
    throw UsageError(fmt::format("the key spacing must be at most 32 bits, not {}", spec.key_spacing_bits));
  }
  const std::uint64_t key_space = std::numeric_limits<std::uint64_t>::max() >> spec.key_spacing_bits;
  if (spec.inner_tuples > key_space - std::min(key_space, spec.outer_tuples)) {
    throw UsageError(fmt::format("|R| + |S| = {} + {} exceeds the 64-bit key space{}", spec.inner_tuples,
                                 spec.outer_tuples,
                                 spec.key_spacing_bits > 0
                                     ? fmt::format(" with keys spaced by 2^{}", spec.key_spacing_bits)
                                     : std::string()));
  }
}

std::uint64_t expected_matches(const WorkloadSpec& spec) {
  if (spec.inner_tuples == 0 || spec.outer_tuples == 0) return 0;
  if (spec.selectivity >= 1.0) return spec.outer_tuples;
  if (!(spec.selectivity > 0.0)) return 0;
  // The product is below |S| < 2^64, so the conversion is defined; round()
  // rounds halves away from zero like llround().
  const double product = std::round(spec.selectivity * static_cast<double>(spec.outer_tuples));
  const auto matches = static_cast<std::uint64_t>(product);
  return matches < spec.outer_tuples ? matches : spec.outer_tuples;
}

void generate_inner(const WorkloadSpec& spec, std::uint64_t first_index, std::uint64_t count, Tuple* out) {
  validate(spec);
  check_range("R", spec.inner_tuples, first_index, count);
  const IndexPermutation permutation(spec.inner_tuples, mix64(spec.seed ^ kInnerPermutationSalt));
  for (std::uint64_t t = 0; t < count; ++t) {
    const std::uint64_t g = first_index + t;
    out[t] = Tuple{permutation(g) << spec.key_spacing_bits, g};
  }
}

namespace {

// A matching tuple's key from a normal distribution around |R| / 2.
std::uint64_t gaussian_key(const WorkloadSpec& spec, std::uint64_t j) {
  CounterRng rng(spec.seed, kOuterKeyStream, j);
  const double n = static_cast<double>(spec.inner_tuples);
  for (;;) {
    // Box-Muller: 1 - u is in (0, 1], so the logarithm is finite.
    const double u = 1.0 - rng.next_double(), v = rng.next_double();
    const double z = std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * 3.14159265358979323846 * v);
    const double x = n / 2 + z * spec.gaussian_sigma * n;
    if (x >= 0.0 && x < n) return std::min(static_cast<std::uint64_t>(x), spec.inner_tuples - 1);
  }
}

}  // namespace

void generate_outer(const WorkloadSpec& spec, std::uint64_t first_index, std::uint64_t count, Tuple* out) {
  validate(spec);
  check_range("S", spec.outer_tuples, first_index, count);
  const std::uint64_t inner = spec.inner_tuples;
  const std::uint64_t matches = expected_matches(spec);
  const IndexPermutation permutation(spec.outer_tuples, mix64(spec.seed ^ kOuterPermutationSalt));
  const unsigned spacing = spec.key_spacing_bits;

  if (spec.zipf_theta > 0.0 && matches > 0) {
    const ZipfSampler zipf(inner, spec.zipf_theta);
    for (std::uint64_t t = 0; t < count; ++t) {
      const std::uint64_t j = first_index + t;
      const std::uint64_t s = permutation(j);
      std::uint64_t key = inner + s;
      if (s < matches) {
        CounterRng rng(spec.seed, kOuterKeyStream, j);
        key = zipf.sample(rng);
      }
      out[t] = Tuple{key << spacing, j};
    }
    return;
  }
  if (spec.gaussian_sigma > 0.0 && matches > 0) {
    for (std::uint64_t t = 0; t < count; ++t) {
      const std::uint64_t j = first_index + t;
      const std::uint64_t s = permutation(j);
      out[t] = Tuple{(s < matches ? gaussian_key(spec, j) : inner + s) << spacing, j};
    }
    return;
  }
  for (std::uint64_t t = 0; t < count; ++t) {
    const std::uint64_t j = first_index + t;
    const std::uint64_t s = permutation(j);
    std::uint64_t key = inner + s;
    if (s < matches) key = s < inner ? s : s % inner;  // skips the division while s < |R|
    out[t] = Tuple{key << spacing, j};
  }
}

}  // namespace hpcdb
