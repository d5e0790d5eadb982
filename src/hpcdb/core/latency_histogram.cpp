#include "hpcdb/core/latency_histogram.hpp"

#include <cmath>

namespace hpcdb {

double LatencyHistogram::value_of(int b) {
  if (b < kSubBuckets) return b;
  const int e = (b - kSubBuckets) / kSubBuckets + 5;
  const int sub = (b - kSubBuckets) % kSubBuckets;
  const double width = std::ldexp(1.0, e - 5);
  return (kSubBuckets + sub) * width + width / 2;
}

double LatencyHistogram::quantile(double q) const {
  if (count_ == 0) return 0;
  const auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_)));
  std::uint64_t seen = 0;
  for (int b = 0; b < kBuckets; ++b) {
    seen += counts_[static_cast<std::size_t>(b)];
    if (seen >= (rank == 0 ? 1 : rank)) return value_of(b);
  }
  return value_of(kBuckets - 1);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  for (std::size_t b = 0; b < counts_.size(); ++b) counts_[b] += other.counts_[b];
  count_ += other.count_;
  sum_ += other.sum_;
}

std::array<std::uint64_t, LatencyHistogram::kWords> LatencyHistogram::to_words() const {
  std::array<std::uint64_t, kWords> w{};
  for (std::size_t b = 0; b < counts_.size(); ++b) w[b] = counts_[b];
  w[kBuckets] = count_;
  w[kBuckets + 1] = sum_;
  return w;
}

LatencyHistogram LatencyHistogram::from_words(const std::array<std::uint64_t, kWords>& w) {
  LatencyHistogram h;
  for (std::size_t b = 0; b < h.counts_.size(); ++b) h.counts_[b] = w[b];
  h.count_ = w[kBuckets];
  h.sum_ = w[kBuckets + 1];
  return h;
}

}  // namespace hpcdb
