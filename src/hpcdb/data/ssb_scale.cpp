#include "hpcdb/data/ssb_scale.hpp"

#include <cmath>
#include <sstream>

#include "hpcdb/core/error.hpp"

namespace hpcdb::ssb {

Scale scale_of(double factor, const std::string& option) {
  if (!(factor >= kSmallestScale && factor <= kLargestScale)) {
    std::ostringstream text;
    text << option << " must be a scale factor from " << kSmallestScale << " to " << kLargestScale << " (got " << factor
         << "); the benchmark defines 1 to 100";
    throw UsageError(text.str());
  }
  Scale s;
  s.factor = factor;
  s.customers = std::llround(30'000 * factor);
  s.suppliers = std::llround(2'000 * factor);
  s.parts = factor >= 1 ? 200'000 * static_cast<std::int64_t>(std::floor(1 + std::log2(factor)))
                        : std::llround(200'000 * factor);
  s.orders = std::llround(1'500'000 * factor);
  return s;
}

}  // namespace hpcdb::ssb
