// A table copied whole to every rank: every rank ends with every rank's
// share, in rank order, value for value. The shares mix batches whose
// buffers are sent where they are (4 KiB and more) with small ones that are
// copied, sliced arrays, nulls, strings and empty batches; with 3+ ranks,
// rank 1 holds nothing.
#include <gtest/gtest.h>

#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_primitive.h>
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

}  // namespace
}  // namespace hpcdb::testing
