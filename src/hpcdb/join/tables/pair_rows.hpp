#pragma once
// The matching pairs of a table join as global row numbers of each side,
// and their order: a result's rows may come in any order, and fetching a
// side's columns costs least when its rows are asked in ascending order
// (the owners read their shares front to back and the answers arrive in
// the result's order, row_fetch.hpp).
#include <cstdint>
#include <vector>

namespace hpcdb {

struct PairRows {
  std::vector<std::uint64_t> left;
  std::vector<std::uint64_t> right;
};

// Sorts the pairs by their left rows (`by_left`) or their right rows
// (least significant digit radix sort, stable).
void order_pairs(PairRows& pairs, bool by_left);

}  // namespace hpcdb
