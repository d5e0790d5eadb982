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
  // Bit v - range.min for every value v some row holds (a superset after
  // updates), for columns whose range spans at most kPresentSpan values;
  // else empty.
  std::vector<std::uint64_t> present;
};

constexpr std::size_t kColumnSampleSize = 4096;
constexpr std::int64_t kPresentSpan = std::int64_t{1} << 20;

// Every column of `table` (rows drawn by a fixed hash, so the same table
// gives the same sample).
std::vector<ColumnStats> column_stats(const ColumnTable& table, std::size_t sample_size = kColumnSampleSize);

// Whether any value of `range` passes `p`.
bool may_pass(const Predicate& p, const ColumnRange& range);
// The share of the column's rows expected to pass `p` (from the sample; 0
// only when no value in the column's range can pass).
double pass_fraction(const Predicate& p, const ColumnStats& stats);
// Whether the set predicate `p` has as members every value the column holds
// within [p.low, p.high]: then it passes exactly the rows that the range
// [p.low, p.high] passes (a year's dates as yyyymmdd keys are a set with
// gaps among the integers but a range among the column's values).
bool covers_present_values(const Predicate& p, const ColumnStats& stats);
// Row values changed: widens the range, marks the new values present.
void note_values(ColumnStats& stats, std::int64_t value);

}  // namespace hpcdb
