#pragma once
// A histogram of durations in nanoseconds with bounded relative error
// (32 sub-buckets per power of two: quantiles are within about 3%), cheap to
// record into and to merge across ranks (element-wise sums).
#include <array>
#include <bit>
#include <cstdint>

namespace hpcdb {

class LatencyHistogram {
 public:
  static constexpr int kSubBuckets = 32;
  static constexpr int kBuckets = kSubBuckets + (64 - 5) * kSubBuckets;

  void add(std::uint64_t ns) {
    ++counts_[static_cast<std::size_t>(bucket_of(ns))];
    ++count_;
    sum_ += ns;
  }
  std::uint64_t count() const { return count_; }
  double mean() const { return count_ == 0 ? 0.0 : static_cast<double>(sum_) / static_cast<double>(count_); }
  // The q-quantile (0 <= q <= 1) in nanoseconds; 0 when empty.
  double quantile(double q) const;
  void merge(const LatencyHistogram& other);

  // For reductions over ranks: the counts, then count and sum, as one array.
  static constexpr int kWords = kBuckets + 2;
  std::array<std::uint64_t, kWords> to_words() const;
  static LatencyHistogram from_words(const std::array<std::uint64_t, kWords>& words);

  static int bucket_of(std::uint64_t ns) {
    if (ns < kSubBuckets) return static_cast<int>(ns);
    const int e = 63 - std::countl_zero(ns);  // >= 5
    const auto sub = static_cast<int>((ns >> (e - 5)) - kSubBuckets);
    return kSubBuckets + (e - 5) * kSubBuckets + sub;
  }
  // The middle of bucket `b`.
  static double value_of(int b);

 private:
  std::array<std::uint64_t, kBuckets> counts_{};
  std::uint64_t count_ = 0;
  std::uint64_t sum_ = 0;
};

}  // namespace hpcdb
