#pragma once
// How a join of two tables moves its rows, decided once before any row is
// read and agreed by all ranks:
//   partitioned  both sides' <key, rid> tuples are partitioned by key over
//                the ranks (radix or sort-merge join), then each result column
//                is fetched for the pairs from the rows' owners (late
//                materialization, table_join.hpp)
//   broadcast    the smaller side's columns go to every rank, where a hash
//                index on its keys is probed by the larger side's own rows;
//                every result column is then taken locally and no row of the
//                larger side moves (broadcast_table_join.hpp)
// Automatically, broadcast is chosen when it makes a rank receive no more
// than a partitioned join whose rows travel with their keys would: the
// smaller side's bytes S and the larger's L, on p ranks, a rank receives
// S (p-1)/p broadcast against (S + L)/p (p-1)/p partitioned, so broadcast
// when S (p-1) <= L. The smaller side must also fit in a rank's memory whole
// (checked with the rest before reading) and have fewer than 2^32 rows.
#include <cstdint>
#include <string>

namespace hpcdb {

enum class TableJoinStrategy { automatic, partitioned, broadcast };

TableJoinStrategy parse_table_join_strategy(const std::string& text);  // auto, partitioned, broadcast; UsageError otherwise
std::string to_string(TableJoinStrategy strategy);

struct StrategyChoice {
  TableJoinStrategy strategy = TableJoinStrategy::partitioned;  // never automatic
  bool broadcast_left = false;  // broadcast: which side goes to every rank
  std::string reason;           // why, for the plan's report
};

// Sides' sizes over all ranks, in memory, of the columns the join reads.
struct SideSizes {
  std::uint64_t left_rows = 0;
  std::uint64_t right_rows = 0;
  std::uint64_t left_bytes = 0;
  std::uint64_t right_bytes = 0;
};

// The same on every rank for the same arguments.
StrategyChoice choose_table_join_strategy(TableJoinStrategy requested, const SideSizes& sizes, int ranks);

}  // namespace hpcdb
