// Late materialization of table columns: every rank gets the values of the
// global rows it asked for, in the order it asked, for every column type,
// with and without nulls, from shares cut into sliced batches; compared with
// Arrow's take kernel on the whole table.
#include <gtest/gtest.h>

#include <arrow/array/builder_primitive.h>
#include <arrow/array/concatenate.h>

#include <random>

#include "hpcdb/join/tables/row_fetch.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/column_take.hpp"
#include "net/test_cluster.hpp"

namespace hpcdb::testing {
namespace {

std::vector<std::shared_ptr<arrow::DataType>> column_types() {
  return {arrow::int8(),        arrow::uint16(),   arrow::int32(),
          arrow::uint64(),      arrow::float32(),  arrow::float64(),
          arrow::boolean(),     arrow::date32(),   arrow::timestamp(arrow::TimeUnit::MICRO),
          arrow::decimal128(20, 2), arrow::utf8(), arrow::large_utf8()};
}

// Row r's value is r * 7919 mod 100 (as the column's type); with nulls,
// every fifth row is null.
std::shared_ptr<arrow::Array> global_column(const std::shared_ptr<arrow::DataType>& type, std::int64_t rows, bool nulls) {
  arrow::Int32Builder builder;
  for (std::int64_t r = 0; r < rows; ++r) {
    if (nulls && r % 5 == 3) {
      check_arrow(builder.AppendNull(), "append");
    } else {
      check_arrow(builder.Append(static_cast<std::int32_t>((r * 7919) % 100)), "append");
    }
  }
  std::shared_ptr<arrow::Array> ints = value_of(builder.Finish(), "finish");
  if (type->id() == arrow::Type::LARGE_STRING) return cast_array(cast_array(ints, arrow::utf8(), "test"), type, "test");
  if (type->id() == arrow::Type::TIMESTAMP) return cast_array(cast_array(ints, arrow::int64(), "test"), type, "test");
  return cast_array(ints, type, "test");
}

// This rank's share of `rows` global rows: a contiguous range, cut into
// batches of up to 37 rows, each a slice of a longer array.
DistributedTable share_of(const std::vector<std::shared_ptr<arrow::Array>>& global, std::int64_t rows,
                          std::vector<std::uint64_t>& first) {
  const Cluster& c = cluster();
  first.assign(static_cast<std::size_t>(c.size()) + 1, 0);
  for (int r = 0; r < c.size(); ++r) {
    // With 3+ ranks rank 1 holds nothing; the others hold equal parts.
    const bool holds_nothing = c.size() > 2 && r == 1;
    const std::int64_t part = holds_nothing ? 0 : rows / (c.size() > 2 ? c.size() - 1 : c.size()) + 1;
    first[static_cast<std::size_t>(r) + 1] = std::min<std::uint64_t>(first[static_cast<std::size_t>(r)] + part, rows);
  }
  first.back() = static_cast<std::uint64_t>(rows);
  arrow::FieldVector fields;
  for (std::size_t c2 = 0; c2 < global.size(); ++c2) fields.push_back(arrow::field("c" + std::to_string(c2), global[c2]->type()));
  DistributedTable table;
  table.schema = arrow::schema(fields);
  const auto me = static_cast<std::size_t>(c.rank());
  for (auto at = static_cast<std::int64_t>(first[me]); at < static_cast<std::int64_t>(first[me + 1]); at += 37) {
    const std::int64_t n = std::min<std::int64_t>(37, static_cast<std::int64_t>(first[me + 1]) - at);
    std::vector<std::shared_ptr<arrow::Array>> columns;
    for (const auto& column : global) {
      // A slice of a copy that starts 3 rows earlier: the batch's arrays have an offset.
      const std::int64_t from = std::max<std::int64_t>(0, at - 3);
      const auto copy = value_of(arrow::Concatenate({column->Slice(from, at + n - from)}), "copy");
      columns.push_back(copy->Slice(at - from, n));
    }
    table.batches.push_back(arrow::RecordBatch::Make(table.schema, n, columns));
  }
  return table;
}

TEST(RowFetch, EveryColumnTypeArrivesInTheOrderAsked) {
  const Cluster& c = cluster();
  for (const bool nulls : {false, true}) {
    const std::int64_t rows = 1000;
    std::vector<std::shared_ptr<arrow::Array>> global;
    for (const auto& type : column_types()) global.push_back(global_column(type, rows, nulls));
    std::vector<std::uint64_t> first;
    const DistributedTable table = share_of(global, rows, first);
    const RowDirectory directory(c, table);
    ASSERT_EQ(directory.total(), static_cast<std::uint64_t>(rows));
    // Rank 0 asks nothing (with 3+ ranks); the others random rows, repeats included.
    std::vector<std::uint64_t> asked;
    std::mt19937_64 random(static_cast<std::uint64_t>(c.rank()) * 31 + 7);
    const std::size_t count = c.size() > 2 && c.rank() == 0 ? 0 : 1500;
    for (std::size_t i = 0; i < count; ++i) asked.push_back(random() % static_cast<std::uint64_t>(rows));
    std::uint64_t sent = 0;
    const RowFetch fetch(c, table, directory, asked, sent);
    FetchScratch scratch;
    for (std::size_t k = 0; k < global.size(); ++k) {
      const std::shared_ptr<arrow::Array> got = fetch.column(static_cast<int>(k), scratch, sent);
      const std::shared_ptr<arrow::Array> expected = take_rows(global[k], asked);
      ASSERT_TRUE(got->ValidateFull().ok()) << got->ValidateFull().ToString();
      EXPECT_TRUE(got->Equals(*expected)) << global[k]->type()->ToString() << (nulls ? " with nulls" : "") << ": "
                                          << got->ToString().substr(0, 300) << "\nexpected "
                                          << expected->ToString().substr(0, 300);
      EXPECT_EQ(got->null_count(), expected->null_count()) << global[k]->type()->ToString();
    }
  }
}

TEST(RowFetch, RowsAskedInAscendingOrderNeedNoPlacement) {
  const Cluster& c = cluster();
  const std::int64_t rows = 500;
  const std::vector<std::shared_ptr<arrow::Array>> global{global_column(arrow::int64(), rows, true),
                                                          global_column(arrow::utf8(), rows, false)};
  std::vector<std::uint64_t> first;
  const DistributedTable table = share_of(global, rows, first);
  const RowDirectory directory(c, table);
  std::vector<std::uint64_t> asked;
  for (std::uint64_t r = static_cast<std::uint64_t>(c.rank()); r < static_cast<std::uint64_t>(rows); r += 3) asked.push_back(r);
  std::uint64_t sent = 0;
  const RowFetch fetch(c, table, directory, asked, sent);
  FetchScratch scratch;
  for (int k = 0; k < 2; ++k) {
    EXPECT_TRUE(fetch.column(k, scratch, sent)->Equals(*take_rows(global[static_cast<std::size_t>(k)], asked)));
  }
}

}  // namespace
}  // namespace hpcdb::testing
