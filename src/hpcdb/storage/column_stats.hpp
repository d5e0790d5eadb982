#pragma once
// What a query index needs to know about a column to choose which predicate
// of a query to index: its smallest and largest value (the size of a value
// table) and a sample of its values (how many rows a predicate passes: value
// ranges are a poor guide when values are not spread evenly, as yyyymmdd
// dates are not).
#include <cstdint>
#include <vector>

#include "hpcdb/storage/column_table.hpp"
#include "hpcdb/storage/predicate.hpp"

namespace hpcdb {

struct ColumnStats {
  ColumnRange range;
  std::vector<std::int64_t> sample;  // values of rows drawn at random (none for text columns)
};

constexpr std::size_t kColumnSampleSize = 4096;

// Every column of `table` (rows drawn by a fixed hash, so the same table
// gives the same sample).
std::vector<ColumnStats> column_stats(const ColumnTable& table, std::size_t sample_size = kColumnSampleSize);

// Whether any value of `range` passes `p`.
bool may_pass(const Predicate& p, const ColumnRange& range);
// The share of the column's rows expected to pass `p` (from the sample; 0
// only when no value in the column's range can pass).
double pass_fraction(const Predicate& p, const ColumnStats& stats);

}  // namespace hpcdb
