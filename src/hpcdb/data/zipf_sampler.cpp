#include "hpcdb/data/zipf_sampler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "hpcdb/core/error.hpp"

// How the sampler works. Let r = k + 1 be the 1-based rank and
// h(x) = x^-theta, so that P(r) is proportional to h(r). Take the
// antiderivative H(x) = integral of h from 1 to x, that is
// (x^(1-theta) - 1) / (1 - theta), or ln x for theta = 1.
//
// h is decreasing and convex, so over the cell [r - 1/2, r + 1/2] its area
// H(r + 1/2) - H(r - 1/2) is at least h(r) (the midpoint rule underestimates
// convex functions). Draw u uniformly from the area and map it back to
// x = H^-1(u); the cell holding x gives the candidate r = round(x). Accepting
// r exactly when u lies in the last h(r) of its cell's area,
// u >= H(r + 1/2) - h(r), accepts each r with probability proportional to
// h(r): the wanted distribution, with no normalising constant needed.
//
// The area starts at H(3/2) - h(1) rather than at H(1/2): cell 1 then holds
// exactly h(1) and is always accepted. The cells r >= 2 waste only the small
// gap between a convex curve and its midpoint value, so few draws are rejected.
//
// Squeeze: r is accepted iff x >= t_r := H^-1(H(r + 1/2) - h(r)). The distance
// r - t_r grows with r towards 1/2 (expanding h around r gives
// r - t_r = 1/2 - theta (theta + 1) / (24 r^2) + O(r^-3); checked numerically
// for theta in [0.001, 20] and r up to 10^9), so with s = 2 - t_2 every
// x >= r - s is accepted without evaluating H and h again. Most draws end
// there, after one log and one exp.
//
// H and H^-1 are written with expm1 and log1p so that they stay accurate for
// theta near 1 and for small arguments:
//   H(x)    = expm1((1 - theta) ln x) / (1 - theta)
//   H^-1(y) = exp(log1p((1 - theta) y) / (1 - theta))
// and where (1 - theta) times the argument is tiny (theta = 1 included),
// by their Taylor expansions ln x (1 + t / 2) and exp(y (1 - t / 2)).

namespace hpcdb {

namespace {
// Below this, the second-order Taylor terms are under 1e-16 relative.
constexpr double kTaylorBelow = 1e-8;

// log1p(t) within a few ulps by Kahan's correction of log(1 + t) for the
// rounding of 1 + t. Several times faster than glibc's log1p near t = -1,
// which is where most draws for theta > 1 land.
double log1p_via_log(double t) {
  const double u = 1.0 + t;
  return u == 1.0 ? t : std::log(u) * (t / (u - 1.0));
}
}  // namespace

ZipfSampler::ZipfSampler(std::uint64_t n, double theta) : n_(n), theta_(theta) {
  if (n == 0) throw UsageError("a Zipf distribution needs at least one key, but the key range is empty");
  if (!(theta > 0.0) || !std::isfinite(theta)) {
    throw UsageError(fmt::format("the Zipf exponent theta must be a positive finite number, not {}", theta));
  }
  one_minus_theta_ = 1.0 - theta;
  inverse_one_minus_theta_ = 1.0 / one_minus_theta_;  // unused (infinite) for theta = 1
  // Ranks beyond 2^63 have no measurable probability; the cap keeps the
  // conversion of the rank back to an integer defined.
  n_as_double_ = std::min(static_cast<double>(n), 0x1p63);
  u_first_ = hat_integral(1.5) - 1.0;
  u_last_ = hat_integral(n_as_double_ + 0.5);
  squeeze_ = 2.0 - hat_integral_inverse(hat_integral(2.5) - hat(2.0));
}

double ZipfSampler::hat(double x) const { return std::exp(-theta_ * std::log(x)); }

double ZipfSampler::hat_integral(double x) const {
  const double log_x = std::log(x);
  const double t = one_minus_theta_ * log_x;
  if (std::abs(t) > kTaylorBelow) return std::expm1(t) * inverse_one_minus_theta_;
  return log_x * (1.0 + 0.5 * t);
}

double ZipfSampler::hat_integral_inverse(double y) const {
  // For theta > 1, H is bounded by 1 / (theta - 1); rounding at that end must
  // not take log1p below -1 (x then becomes +inf and is clamped to n).
  const double t = std::max(-1.0, one_minus_theta_ * y);
  if (std::abs(t) > kTaylorBelow) return std::exp(log1p_via_log(t) * inverse_one_minus_theta_);
  return std::exp(y * (1.0 - 0.5 * t));
}

std::uint64_t ZipfSampler::sample(CounterRng& rng) const {
  for (;;) {
    const double u = u_last_ + rng.next_double() * (u_first_ - u_last_);
    const double x = hat_integral_inverse(u);
    const double rank = std::clamp(std::floor(x + 0.5), 1.0, n_as_double_);
    if (rank - x <= squeeze_ || u >= hat_integral(rank + 0.5) - hat(rank)) {
      return std::min(static_cast<std::uint64_t>(rank), n_) - 1;
    }
  }
}

}  // namespace hpcdb
