#pragma once
// Table sizes of the Star Schema Benchmark at a scale factor: 30,000 x SF
// customers, 2,000 x SF suppliers, 200,000 x floor(1 + log2 SF) parts,
// 1,500,000 x SF orders of 1 to 7 lines each (about 6,000,000 x SF
// lineorder rows), 2,557 dates (seven years). The benchmark defines SF 1 to 100 (and more);
// fractions down to 0.01 give small data sets for tests (parts then scale
// linearly: 200,000 x SF).
#include <cstdint>
#include <string>

namespace hpcdb::ssb {

struct Scale {
  double factor = 1;
  std::int64_t customers = 0;
  std::int64_t suppliers = 0;
  std::int64_t parts = 0;
  std::int64_t orders = 0;
};

constexpr double kSmallestScale = 0.01;
constexpr double kLargestScale = 1000;

// UsageError naming `option` outside [0.01, 1000].
Scale scale_of(double factor, const std::string& option = "--scale");

// TPC-H's sparse order keys: of every 32 consecutive keys the first 8 are used.
constexpr std::int64_t order_key(std::int64_t order_index) { return order_index / 8 * 32 + order_index % 8 + 1; }
constexpr std::int64_t order_index_of_key(std::int64_t key) { return (key - 1) / 32 * 8 + (key - 1) % 32; }
constexpr bool is_order_key(std::int64_t key) { return key >= 1 && (key - 1) % 32 < 8; }

}  // namespace hpcdb::ssb
