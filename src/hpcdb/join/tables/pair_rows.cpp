#include "hpcdb/join/tables/pair_rows.hpp"

#include <algorithm>
#include <bit>

namespace hpcdb {
namespace {

constexpr unsigned kDigitBits = 11;

// One stable pass over the digit at `shift` of `keys`, `others` following.
void radix_pass(std::vector<std::uint64_t>& keys, std::vector<std::uint64_t>& others, unsigned shift,
                std::vector<std::uint64_t>& keys_out, std::vector<std::uint64_t>& others_out) {
  constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
  std::vector<std::uint64_t> next(kBuckets + 1, 0);
  for (const std::uint64_t k : keys) ++next[((k >> shift) & (kBuckets - 1)) + 1];
  for (std::size_t b = 0; b < kBuckets; ++b) next[b + 1] += next[b];
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::uint64_t at = next[(keys[i] >> shift) & (kBuckets - 1)]++;
    keys_out[at] = keys[i];
    others_out[at] = others[i];
  }
  keys.swap(keys_out);
  others.swap(others_out);
}

}  // namespace

void order_pairs(PairRows& pairs, bool by_left) {
  std::vector<std::uint64_t>& keys = by_left ? pairs.left : pairs.right;
  std::vector<std::uint64_t>& others = by_left ? pairs.right : pairs.left;
  if (keys.size() < 2 || std::is_sorted(keys.begin(), keys.end())) return;
  const std::uint64_t largest = *std::max_element(keys.begin(), keys.end());
  const auto bits = static_cast<unsigned>(std::bit_width(largest));
  std::vector<std::uint64_t> keys_out(keys.size()), others_out(others.size());
  for (unsigned shift = 0; shift < bits; shift += kDigitBits) radix_pass(keys, others, shift, keys_out, others_out);
}

}  // namespace hpcdb
