#include "hpcdb/table/share_dealing.hpp"

#include <algorithm>

namespace hpcdb {

std::vector<int> deal_units(const std::vector<std::uint64_t>& unit_rows, int ranks) {
  std::uint64_t total = 0;
  for (std::uint64_t rows : unit_rows) total += rows;
  std::vector<int> owner(unit_rows.size(), 0);
  if (total == 0 || ranks <= 1) return owner;
  __extension__ typedef unsigned __int128 Wide;
  std::uint64_t start = 0;
  for (std::size_t i = 0; i < unit_rows.size(); ++i) {
    // Twice the middle row, so that odd unit sizes need no rounding.
    const Wide middle2 = static_cast<Wide>(2 * start + unit_rows[i]);
    const auto rank = static_cast<int>(middle2 * static_cast<unsigned>(ranks) / (2 * static_cast<Wide>(total)));
    owner[i] = std::min(rank, ranks - 1);
    start += unit_rows[i];
  }
  return owner;
}

DealtUnits deal_file_units(const std::vector<std::vector<std::uint64_t>>& rows_of_file, int ranks) {
  DealtUnits dealt;
  std::vector<std::uint64_t> unit_rows;
  dealt.first_unit.assign(1, 0);
  for (const std::vector<std::uint64_t>& rows : rows_of_file) {
    unit_rows.insert(unit_rows.end(), rows.begin(), rows.end());
    dealt.first_unit.push_back(unit_rows.size());
  }
  for (std::uint64_t rows : unit_rows) dealt.total_rows += rows;
  dealt.rank = deal_units(unit_rows, ranks);
  return dealt;
}

}  // namespace hpcdb
