// A table copied whole to every rank: every rank ends with every rank's
// share, in rank order, value for value. The shares mix batches whose
// buffers are sent where they are (4 KiB and more) with small ones that are
// copied, sliced arrays, nulls, strings and empty batches; with 3+ ranks,
// rank 1 holds nothing. Shares with no rows anywhere, and dictionary and
// list columns whose dictionaries differ from batch to batch, arrive too.
#include <gtest/gtest.h>

#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/array/builder_dict.h>
#include <arrow/array/builder_nested.h>
#include <arrow/table.h>

#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/table_allgather.hpp"
#include "net/test_cluster.hpp"

namespace hpcdb::testing {
namespace {

std::shared_ptr<arrow::Schema> test_schema() {
  return arrow::schema({arrow::field("id", arrow::int64(), false), arrow::field("name", arrow::utf8()),
                        arrow::field("flag", arrow::boolean())});
}

// Rows [from, from + n) of the global table: id = row, name = "n<row>"
// (null every seventh row), flag = row is odd.
std::vector<std::shared_ptr<arrow::Array>> global_rows(std::int64_t from, std::int64_t n) {
  arrow::Int64Builder ids;
  arrow::StringBuilder names;
  arrow::BooleanBuilder flags;
  for (std::int64_t r = from; r < from + n; ++r) {
    check_arrow(ids.Append(r), "append");
    check_arrow(r % 7 == 5 ? names.AppendNull() : names.Append("n" + std::to_string(r)), "append");
    check_arrow(flags.Append(r % 2 == 1), "append");
  }
  return {value_of(ids.Finish(), "finish"), value_of(names.Finish(), "finish"), value_of(flags.Finish(), "finish")};
}

// Rank r's batch sizes (rank 1 holds none with 3+ ranks).
std::vector<std::int64_t> batch_rows(int rank, int ranks) {
  if (ranks > 2 && rank == 1) return {};
  return {3, 2000 + rank, 0, 700, 1};
}

std::int64_t share_rows(int rank, int ranks) {
  std::int64_t sum = 0;
  for (const std::int64_t n : batch_rows(rank, ranks)) sum += n;
  return sum;
}

// Each batch a slice of arrays that begin 5 rows earlier.
DistributedTable share_of(int rank, int ranks) {
  DistributedTable share{test_schema(), {}};
  std::int64_t at = 0;
  for (int r = 0; r < rank; ++r) at += share_rows(r, ranks);
  for (const std::int64_t n : batch_rows(rank, ranks)) {
    std::vector<std::shared_ptr<arrow::Array>> columns;
    for (const auto& column : global_rows(at - 5, n + 5)) columns.push_back(column->Slice(5, n));
    share.batches.push_back(arrow::RecordBatch::Make(share.schema, n, columns));
    at += n;
  }
  return share;
}

TEST(TableAllgather, EveryRankGetsEveryShareInRankOrder) {
  const Cluster& c = cluster();
  const DistributedTable share = share_of(c.rank(), c.size());
  std::uint64_t bytes_sent = 0;
  const AllgatheredTable all = allgather_table(c, share, bytes_sent);

  std::int64_t rows = 0;
  ASSERT_EQ(all.first_row.size(), static_cast<std::size_t>(c.size()) + 1);
  for (int r = 0; r < c.size(); ++r) {
    EXPECT_EQ(all.first_row[static_cast<std::size_t>(r)], static_cast<std::uint64_t>(rows)) << "rank " << r;
    rows += share_rows(r, c.size());
  }
  EXPECT_EQ(all.first_row.back(), static_cast<std::uint64_t>(rows));
  EXPECT_EQ(c.size() > 1, bytes_sent > 0);

  const auto got = value_of(to_arrow_table(all.table)->CombineChunks(), "combine");
  const auto expected = arrow::Table::Make(test_schema(), global_rows(0, rows), rows);
  ASSERT_EQ(got->num_rows(), rows);
  EXPECT_TRUE(got->Equals(*expected)) << got->ToString().substr(0, 2000);
}

TEST(TableAllgather, SharesWithNoRowsAnywhere) {
  const Cluster& c = cluster();
  DistributedTable share{test_schema(), {}};
  if (c.rank() % 2 == 0) {
    share.batches.push_back(arrow::RecordBatch::Make(test_schema(), 0, global_rows(0, 0)));
  }
  std::uint64_t bytes_sent = 0;
  const AllgatheredTable all = allgather_table(c, share, bytes_sent);
  EXPECT_EQ(all.first_row, std::vector<std::uint64_t>(static_cast<std::size_t>(c.size()) + 1, 0));
  EXPECT_EQ(all.table.rows(), 0);
  EXPECT_TRUE(all.table.schema->Equals(*test_schema()));
}

std::shared_ptr<arrow::Schema> nested_schema() {
  return arrow::schema({arrow::field("kind", arrow::dictionary(arrow::int32(), arrow::utf8())),
                        arrow::field("values", arrow::list(arrow::int64()))});
}

// Rank r's batch b: `rows` rows, kind = "k<r>-<b>-<row % 3>" (its own
// dictionary), values = [row, row + 1, ...] of row % 4 items, null every
// fifth row.
std::shared_ptr<arrow::RecordBatch> nested_batch(int rank, int batch, std::int64_t rows) {
  arrow::StringDictionary32Builder kinds;
  arrow::ListBuilder values(arrow::default_memory_pool(), std::make_shared<arrow::Int64Builder>());
  auto& items = static_cast<arrow::Int64Builder&>(*values.value_builder());
  for (std::int64_t row = 0; row < rows; ++row) {
    check_arrow(kinds.Append("k" + std::to_string(rank) + "-" + std::to_string(batch) + "-" + std::to_string(row % 3)),
                "append");
    if (row % 5 == 4) {
      check_arrow(values.AppendNull(), "append");
      continue;
    }
    check_arrow(values.Append(), "append");
    for (std::int64_t i = 0; i < row % 4; ++i) check_arrow(items.Append(row + i), "append");
  }
  return arrow::RecordBatch::Make(nested_schema(), rows,
                                  {value_of(kinds.Finish(), "finish"), value_of(values.Finish(), "finish")});
}

TEST(TableAllgather, DictionaryAndListColumnsWithEachBatchsOwnDictionary) {
  const Cluster& c = cluster();
  const std::vector<std::int64_t> rows{700, 3, 1200};
  DistributedTable share{nested_schema(), {}};
  for (int b = 0; b < 3; ++b) share.batches.push_back(nested_batch(c.rank(), b, rows[static_cast<std::size_t>(b)]));
  std::uint64_t bytes_sent = 0;
  const AllgatheredTable all = allgather_table(c, share, bytes_sent);

  ASSERT_EQ(all.table.batches.size(), static_cast<std::size_t>(3 * c.size()));
  for (int r = 0; r < c.size(); ++r) {
    for (int b = 0; b < 3; ++b) {
      const auto& got = all.table.batches[static_cast<std::size_t>(3 * r + b)];
      const auto expected = nested_batch(r, b, rows[static_cast<std::size_t>(b)]);
      EXPECT_TRUE(got->Equals(*expected)) << "rank " << r << " batch " << b << "\n" << got->ToString().substr(0, 600) << "\nexpected\n" << expected->ToString().substr(0, 600);
    }
  }
}

}  // namespace
}  // namespace hpcdb::testing
