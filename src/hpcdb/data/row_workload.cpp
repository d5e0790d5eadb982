#include "hpcdb/data/row_workload.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "hpcdb/core/error.hpp"
#include "hpcdb/data/counter_rng.hpp"
#include "hpcdb/data/zipf_sampler.hpp"

namespace hpcdb {
namespace {

constexpr std::uint64_t kRowKeyStream = 0x726F775F6B657973ULL;

}  // namespace

void validate(const RowWorkloadSpec& spec) {
  if (spec.row_bytes < 16 || spec.row_bytes > 4096 || spec.row_bytes % 8 != 0) {
    throw UsageError(fmt::format("the row width must be a multiple of 8 bytes between 16 and 4096, not {}",
                                 spec.row_bytes));
  }
  if (spec.keys == KeyDistribution::zipf && !(spec.zipf_theta > 0.0 && std::isfinite(spec.zipf_theta))) {
    throw UsageError(fmt::format("the Zipf exponent must be a positive finite number, not {}", spec.zipf_theta));
  }
}

void generate_rows(const RowWorkloadSpec& spec, std::uint64_t first, std::uint64_t count, std::uint64_t* out) {
  validate(spec);
  const std::size_t words = spec.row_bytes / 8;
  std::optional<ZipfSampler> zipf;
  if (spec.keys == KeyDistribution::zipf) {
    const std::uint64_t domain = spec.key_domain != 0 ? spec.key_domain : (spec.rows != 0 ? spec.rows : 1);
    zipf.emplace(domain, spec.zipf_theta);
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t g = first + i;
    std::uint64_t* row = out + i * words;
    CounterRng rng(spec.seed, kRowKeyStream, g);
    switch (spec.keys) {
      case KeyDistribution::uniform: row[0] = rng.next_u64(); break;
      case KeyDistribution::zipf: row[0] = zipf->sample(rng); break;
      case KeyDistribution::all_to_one: row[0] = 0; break;
    }
    row[1] = g;
    for (std::size_t w = 2; w < words; ++w) row[w] = mix64(g * words + w);
  }
}

RowRange rank_rows(std::uint64_t rows, int rank, int ranks) {
  const auto r = static_cast<std::uint64_t>(rank);
  const auto p = static_cast<std::uint64_t>(ranks);
  const std::uint64_t base = rows / p;
  const std::uint64_t extra = rows % p;
  return {r * base + (r < extra ? r : extra), base + (r < extra ? 1 : 0)};
}

}  // namespace hpcdb
