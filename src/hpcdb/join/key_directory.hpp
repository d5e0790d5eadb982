#pragma once
// A directory over a sorted array's keys: the array's key range cut into
// buckets of equal width, a power of two of them, about four tuples each,
// and for every bucket the first position holding a key of it. A sorted
// visitor then finds each of its keys' stretch of the array by one lookup
// and a few steps, never scanning or searching the array between its keys:
// the broadcast join's chunks are far sparser than a rank's R (a merge
// would read all of R per chunk, a galloping search several keys per tuple).
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hpcdb/join/sorted_values.hpp"
#include "hpcdb/kernels/match_collector.hpp"

namespace hpcdb {

// At most this many buckets for `tuples` tuples.
inline std::uint64_t key_directory_buckets(std::uint64_t tuples) {
  constexpr std::uint64_t kTuplesPerBucket = 4;
  return std::bit_floor(std::max<std::uint64_t>(1, tuples / kTuplesPerBucket));
}

// Bytes of a directory over `tuples` tuples (for memory estimates).
inline std::uint64_t key_directory_bytes(std::uint64_t tuples) {
  return (key_directory_buckets(tuples) + 1) * sizeof(std::size_t);
}

template <class Format>
class KeyDirectory {
 public:
  using Stored = typename Format::Stored;
  // Beyond this many candidates a bucket (crowded keys) is searched, not scanned.
  static constexpr std::size_t kScanLimit = 32;

  KeyDirectory(const Format& format, const Stored* r, std::size_t nr) : format_(format), r_(r) {
    if (nr == 0) return;
    low_ = format.key(r[0]);
    high_ = format.key(r[nr - 1]);
    const std::uint64_t target = key_directory_buckets(nr);
    const std::uint64_t span = high_ - low_;
    while (shift_ < 63 && (span >> shift_) >= target) ++shift_;
    const std::size_t buckets = static_cast<std::size_t>(span >> shift_) + 1;
    first_.assign(buckets + 1, nr);
    std::size_t next = 0;
    for (std::size_t i = 0; i < nr; ++i) {
      const std::size_t b = bucket_of(format.key(r[i]));
      while (next <= b) first_[next++] = i;
    }
  }

  // All pairs of the array with s[0, ns), in any order, into `out`. Equal
  // keys next to each other (sorted s) are matched as one group.
  void join(const Stored* s, std::size_t ns, MatchCollector& out) const {
    if (first_.empty()) return;  // an empty array
    const auto below = [&](const Stored& v, std::uint64_t k) { return format_.key(v) < k; };
    for (std::size_t j = 0; j < ns;) {
      // The visitor's keys are far apart in the array: every lookup would
      // miss the cache without asking for the directory's entry, and then
      // the array's line, well ahead.
      if (j + 2 * kPrefetchDistance < ns) prefetch_entry(format_.key(s[j + 2 * kPrefetchDistance]));
      if (j + kPrefetchDistance < ns) prefetch_tuples(format_.key(s[j + kPrefetchDistance]));
      const std::uint64_t k = format_.key(s[j]);
      std::size_t j_end = j + 1;
      std::uint64_t rid_sum_s = format_.rid(s[j]);
      for (; j_end < ns && format_.key(s[j_end]) == k; ++j_end) rid_sum_s += format_.rid(s[j_end]);
      if (covers(k)) {
        const std::size_t b = bucket_of(k);
        std::size_t at = first_[b];
        const std::size_t end = first_[b + 1];
        if (end - at > kScanLimit) {
          at = static_cast<std::size_t>(std::lower_bound(r_ + at, r_ + end, k, below) - r_);
        } else {
          while (at < end && format_.key(r_[at]) < k) ++at;
        }
        std::size_t at_end = at;
        std::uint64_t rid_sum_r = 0;
        for (; at_end < end && format_.key(r_[at_end]) == k; ++at_end) rid_sum_r += format_.rid(r_[at_end]);
        if (at_end > at) add_group_matches(format_, r_, at, at_end, rid_sum_r, s, j, j_end, rid_sum_s, out);
      }
      j = j_end;
    }
  }

  // The same, s taken `block` values at a time with between() after each.
  template <class Between>
  void join_in_blocks(const Stored* s, std::size_t ns, std::size_t block, MatchCollector& out, Between between) const {
    for (std::size_t first = 0; first < ns; first += block) {
      join(s + first, std::min(block, ns - first), out);
      between();
    }
  }

  std::size_t buckets() const { return first_.empty() ? 0 : first_.size() - 1; }

 private:
  static constexpr std::size_t kPrefetchDistance = 16;

  // The directory's entry first, then (once it has arrived) the array's line.
  void prefetch_entry(std::uint64_t key) const {
    if (covers(key)) __builtin_prefetch(first_.data() + bucket_of(key));
  }
  void prefetch_tuples(std::uint64_t key) const {
    if (covers(key)) __builtin_prefetch(r_ + first_[bucket_of(key)]);
  }

  bool covers(std::uint64_t key) const { return key >= low_ && key <= high_; }
  std::size_t bucket_of(std::uint64_t key) const { return static_cast<std::size_t>((key - low_) >> shift_); }

  Format format_;
  const Stored* r_ = nullptr;
  std::uint64_t low_ = 0;
  std::uint64_t high_ = 0;
  unsigned shift_ = 0;
  std::vector<std::size_t> first_;  // per bucket, and the end; empty for an empty array
};

}  // namespace hpcdb
