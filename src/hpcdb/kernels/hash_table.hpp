#pragma once
// Cache-resident bucket-chained hash table over one final partition of R
// (two arrays: bucket heads and a next-chain, indices stored +1 so 0 = empty).
// Hashing uses the key bits that partitioning has not consumed yet.
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <vector>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/core/error.hpp"

namespace hpcdb {

template <class Format>
class BucketChainTable {
 public:
  using Stored = typename Format::Stored;

  BucketChainTable(Format format, unsigned consumed_bits) : format_(format), shift_(consumed_bits) {}

  // Builds over r[0, n). The table keeps a pointer to r.
  void build(const Stored* r, std::size_t n) {
    if (n >= 0xFFFFFFFFu) throw Error("a build partition has more than 2^32 tuples; use more --local-bits");
    const std::size_t buckets = bucket_count(n);
    hash_shift_ = 64 - ceil_log2(buckets);
    if (heads_.size() < buckets) heads_.resize(buckets);
    std::fill(heads_.begin(), heads_.begin() + static_cast<std::ptrdiff_t>(buckets), 0u);
    if (next_.size() < n) next_.resize(n);
    std::uint32_t* heads = heads_.data();
    std::uint32_t* next = next_.data();
    // Two tuples at a time, both bucket heads read before either is
    // written, so that the second insert need not wait for the first one's
    // store (the CPU cannot tell in time that they rarely touch the same
    // bucket).
    auto insert_two = [heads, next](std::size_t j, std::size_t b1, std::size_t b2) {
      const std::uint32_t head1 = heads[b1];
      const std::uint32_t head2 = b1 == b2 ? static_cast<std::uint32_t>(j + 1) : heads[b2];
      next[j] = head1;
      next[j + 1] = head2;
      heads[b1] = static_cast<std::uint32_t>(j + 1);
      heads[b2] = static_cast<std::uint32_t>(j + 2);
    };
    // The buckets of eight tuples are computed before any of them is
    // inserted: a tuple load that follows table stores in program order can
    // be predicted to depend on them and then waits for them (build+probe
    // 255 -> 295 M tuples/s at 2^11 on Zen).
    constexpr std::size_t kBatch = 8;
    std::size_t i = 0;
    for (; i + kBatch <= n; i += kBatch) {
      std::size_t bucket[kBatch];
      for (std::size_t k = 0; k < kBatch; ++k) bucket[k] = bucket_of(r[i + k]);
      for (std::size_t k = 0; k < kBatch; k += 2) insert_two(i + k, bucket[k], bucket[k + 1]);
    }
    for (; i + 2 <= n; i += 2) insert_two(i, bucket_of(r[i]), bucket_of(r[i + 1]));
    for (; i < n; ++i) {
      const std::size_t b = bucket_of(r[i]);
      next[i] = heads[b];
      heads[b] = static_cast<std::uint32_t>(i + 1);
    }
    r_ = r;
  }

  // Calls emit(r_item, s_item) for every pair with equal keys.
  template <class Emit>
  void probe(const Stored* s, std::size_t n, Emit&& emit) const {
    const std::uint32_t* heads = heads_.data();
    const std::uint32_t* next = next_.data();
    // Bucket heads of a group of probes are loaded first, independently of
    // each other, so that their cache misses overlap.
    constexpr std::size_t kGroup = 8;
    std::size_t i = 0;
    for (; i + kGroup <= n; i += kGroup) {
      std::uint32_t first[kGroup];
      for (std::size_t k = 0; k < kGroup; ++k) first[k] = heads[bucket_of(s[i + k])];
      for (std::size_t k = 0; k < kGroup; ++k) walk_chain(first[k], next, s[i + k], emit);
    }
    for (; i < n; ++i) walk_chain(heads[bucket_of(s[i])], next, s[i], emit);
  }

  template <class Emit>
  void walk_chain(std::uint32_t hit, const std::uint32_t* next, const Stored& probe_item, Emit& emit) const {
    for (; hit != 0; hit = next[hit - 1]) {
      const Stored& build_item = r_[hit - 1];
      if (format_.same_key(build_item, probe_item)) emit(build_item, probe_item);
    }
  }

  // Buckets for n tuples: a power of two of at least 2n. A probe walks its
  // whole chain, 1 + Poisson(n / buckets) entries for a key that matches: at
  // one bucket per tuple the loop's exit is unpredictable, at two or more
  // buckets per tuple at least 91% of probes are done after two entries.
  // Measured on Zen at 2^11 partitions: build+probe 150-160 -> 255-275 M
  // tuples/s, for 4 more bytes of heads per tuple (4x: slower).
  static std::size_t bucket_count(std::size_t n) { return std::max<std::size_t>(2, 2 * next_power_of_two(n)); }

 private:
  std::size_t bucket_of(const Stored& v) const {
    const std::uint64_t residual = format_.residual_key(v);
    // Multiplicative hashing of the key bits partitioning has not consumed,
    // so that keys with regular patterns (multiples, strides) still spread.
    const std::uint64_t unconsumed = shift_ >= 64 ? 0 : residual >> shift_;
    return static_cast<std::size_t>((unconsumed * 0x9E3779B97F4A7C15ULL) >> hash_shift_);
  }

  Format format_;
  unsigned shift_;
  unsigned hash_shift_ = 63;
  std::vector<std::uint32_t> heads_;
  std::vector<std::uint32_t> next_;
  const Stored* r_ = nullptr;
};

}  // namespace hpcdb
