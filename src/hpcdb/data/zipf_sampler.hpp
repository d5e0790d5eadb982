#pragma once
// Zipf-distributed ranks: sample() returns k in [0, n) with probability
// proportional to 1 / (k + 1)^theta, in constant expected time whatever n
// (no table of n entries, no harmonic sums), by rejection-inversion
// (W. Hörmann, G. Derflinger, "Rejection-inversion to generate variates from
// monotone discrete distributions", ACM TOMACS 6(3), 1996).
#include <cstdint>

#include "hpcdb/data/counter_rng.hpp"

namespace hpcdb {

class ZipfSampler {
 public:
  // Throws UsageError unless n >= 1 and theta is positive and finite.
  ZipfSampler(std::uint64_t n, double theta);

  std::uint64_t sample(CounterRng& rng) const;

  std::uint64_t size() const { return n_; }
  double theta() const { return theta_; }

 private:
  double hat(double x) const;
  double hat_integral(double x) const;
  double hat_integral_inverse(double y) const;

  std::uint64_t n_;
  double theta_;
  double one_minus_theta_;
  double inverse_one_minus_theta_;
  double n_as_double_;
  double u_first_;  // left end of the sampled hat-area range
  double u_last_;   // right end, H(n + 1/2)
  double squeeze_;
};

}  // namespace hpcdb
