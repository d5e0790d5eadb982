#pragma once
// How a table's units (Parquet row groups, Arrow IPC record batches) are
// dealt to ranks so that every rank gets a similar number of rows while the
// rows keep their order: a unit goes to the rank whose equal share of all
// rows holds the unit's middle row. Each rank's rows then differ from
// total / ranks by at most half the largest unit, and rank r's units come
// before rank r+1's. With fewer units than ranks some ranks get none.
#include <cstdint>
#include <vector>

namespace hpcdb {

// The rank of each unit, given the units' row counts in order.
std::vector<int> deal_units(const std::vector<std::uint64_t>& unit_rows, int ranks);

// The units of several files dealt together: each file's units in order.
struct DealtUnits {
  std::vector<std::size_t> first_unit;  // files + 1: each file's first unit among all
  std::vector<int> rank;                // of every unit
  std::uint64_t total_rows = 0;
};
DealtUnits deal_file_units(const std::vector<std::vector<std::uint64_t>>& rows_of_file, int ranks);

}  // namespace hpcdb
