#pragma once
// Rows for the shuffle operator, generated piecewise like the join's
// workload: the row with global index g depends only on g and the spec, so
// any rank can generate its own index range.
//
// Row g (0 <= g < rows) has row_bytes / 8 words:
//   word 0 (key):  uniform     a random 64-bit word of stream g,
//                  zipf        the rank of a Zipf(theta) draw over `key_domain`
//                              keys (key 0 most frequent), of stream g,
//                  all-to-one  0 for every row (all rows go to one rank);
//   word 1:        g;
//   word i > 1:    mix64(g * row_words + i), so that wide rows are not constant.
#include <cstdint>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/named_values.hpp"

namespace hpcdb {

enum class KeyDistribution { uniform, zipf, all_to_one };

inline constexpr NamedValues<KeyDistribution, 3> kKeyDistributionNames{{
    {KeyDistribution::uniform, "uniform"},
    {KeyDistribution::zipf, "zipf"},
    {KeyDistribution::all_to_one, "all-to-one"},
}};

struct RowWorkloadSpec {
  std::uint64_t rows = 0;       // over all ranks
  std::uint32_t row_bytes = 16;  // a multiple of 8, at least 16
  KeyDistribution keys = KeyDistribution::uniform;
  double zipf_theta = 1.0;
  std::uint64_t key_domain = 0;  // zipf: distinct keys (0: as many as rows)
  std::uint64_t seed = 1;
};

// Throws UsageError for a width that is not a multiple of 8 in [16, 4096], a
// non-positive or non-finite theta, or a zero key domain with zero rows under zipf.
void validate(const RowWorkloadSpec& spec);

// Writes rows [first, first + count) to out (count * row_bytes bytes,
// 8-byte aligned).
void generate_rows(const RowWorkloadSpec& spec, std::uint64_t first, std::uint64_t count, std::uint64_t* out);

// The global index range [first, first + count) of `rank` among `ranks`
// (nearly equal shares, the first ranks get one more).
struct RowRange {
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};
RowRange rank_rows(std::uint64_t rows, int rank, int ranks);

}  // namespace hpcdb
