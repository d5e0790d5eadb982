// The table shuffle moves every row, value for value, to exactly one rank,
// and all rows of a key to the same one, null keys to rank 0: a large_string
// key with duplicates, bool, string and double columns with nulls, sliced
// batches, empty batches, and with 3+ ranks a rank that holds no rows.
// Each row carries its global id; every other value is a function of the id,
// so a row that arrives with another row's values, or twice, or not at all,
// is caught.
#include <gtest/gtest.h>
#include <mpi.h>

#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/record_batch.h>

#include <algorithm>
#include <optional>
#include <string>

#include "hpcdb/shuffle/tables/table_shuffle.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "net/test_cluster.hpp"

// A namespace of its own: the tests are compiled together (a unity build).
namespace hpcdb::testing::table_shuffle_test {
namespace {

constexpr int kKeys = 37;

std::shared_ptr<arrow::Schema> shuffle_schema() {
  return arrow::schema({arrow::field("id", arrow::int64(), false), arrow::field("key", arrow::large_utf8()),
                        arrow::field("flag", arrow::boolean()), arrow::field("note", arrow::utf8()),
                        arrow::field("price", arrow::float64())});
}

// The values of row `id` (nullopt: null), from `id + 3000`: the rows before
// a slice have negative ids.
std::int64_t positive(std::int64_t id) { return id + 3000; }
std::optional<std::string> key_of(std::int64_t row) {
  const std::int64_t id = positive(row);
  if (id % 11 == 3) return std::nullopt;
  return "key-" + std::to_string(id % kKeys) + std::string(static_cast<std::size_t>(id % kKeys % 5) * 4, '#');
}
std::optional<bool> flag_of(std::int64_t row) {
  const std::int64_t id = positive(row);
  if (id % 5 == 2) return std::nullopt;
  return id % 3 == 0;
}
std::optional<std::string> note_of(std::int64_t row) {
  const std::int64_t id = positive(row);
  if (id % 7 == 1) return std::nullopt;
  return std::string(static_cast<std::size_t>(id % 29), static_cast<char>('a' + id % 26));
}
std::optional<double> price_of(std::int64_t row) {
  if (positive(row) % 13 == 4) return std::nullopt;
  return static_cast<double>(row) * 0.25;
}

// Rows [from, from + n) of the global table.
std::vector<std::shared_ptr<arrow::Array>> rows_of(std::int64_t from, std::int64_t n) {
  arrow::Int64Builder ids;
  arrow::LargeStringBuilder keys;
  arrow::BooleanBuilder flags;
  arrow::StringBuilder notes;
  arrow::DoubleBuilder prices;
  for (std::int64_t id = from; id < from + n; ++id) {
    check_arrow(ids.Append(id), "append");
    const auto key = key_of(id);
    check_arrow(key ? keys.Append(*key) : keys.AppendNull(), "append");
    const auto flag = flag_of(id);
    check_arrow(flag ? flags.Append(*flag) : flags.AppendNull(), "append");
    const auto note = note_of(id);
    check_arrow(note ? notes.Append(*note) : notes.AppendNull(), "append");
    const auto price = price_of(id);
    check_arrow(price ? prices.Append(*price) : prices.AppendNull(), "append");
  }
  return {value_of(ids.Finish(), "finish"), value_of(keys.Finish(), "finish"), value_of(flags.Finish(), "finish"),
          value_of(notes.Finish(), "finish"), value_of(prices.Finish(), "finish")};
}

std::vector<std::int64_t> batch_rows(int rank, int ranks) {
  if (ranks > 2 && rank == 1) return {};
  return {3, 1500 + rank, 0, 400};
}

std::int64_t total_rows(int ranks) {
  std::int64_t sum = 0;
  for (int r = 0; r < ranks; ++r) {
    for (const std::int64_t n : batch_rows(r, ranks)) sum += n;
  }
  return sum;
}

// Rank r's share: its batches, each a slice of arrays that begin 3 rows earlier.
DistributedTable share_of(int rank, int ranks) {
  DistributedTable share{shuffle_schema(), {}};
  std::int64_t at = 0;
  for (int r = 0; r < rank; ++r) {
    for (const std::int64_t n : batch_rows(r, ranks)) at += n;
  }
  for (const std::int64_t n : batch_rows(rank, ranks)) {
    std::vector<std::shared_ptr<arrow::Array>> columns;
    for (const auto& column : rows_of(at - 3, n + 3)) columns.push_back(column->Slice(3, n));
    share.batches.push_back(arrow::RecordBatch::Make(share.schema, n, columns));
    at += n;
  }
  return share;
}

TEST(TableShuffle, EveryRowOnceWithItsValuesAndEachKeyOnOneRank) {
  const Cluster& c = cluster();
  const TableShuffleOutcome out = shuffle_table(c, share_of(c.rank(), c.size()), {1});
  ASSERT_TRUE(out.result.schema->Equals(*shuffle_schema()));

  std::vector<std::int64_t> ids;
  std::vector<int> holds_key(kKeys, 0);
  for (const auto& batch : out.result.batches) {
    const auto& id = static_cast<const arrow::Int64Array&>(*batch->column(0));
    const auto& key = static_cast<const arrow::LargeStringArray&>(*batch->column(1));
    const auto& flag = static_cast<const arrow::BooleanArray&>(*batch->column(2));
    const auto& note = static_cast<const arrow::StringArray&>(*batch->column(3));
    const auto& price = static_cast<const arrow::DoubleArray&>(*batch->column(4));
    for (std::int64_t i = 0; i < batch->num_rows(); ++i) {
      const std::int64_t row = id.Value(i);
      ids.push_back(row);
      const auto want_key = key_of(row);
      ASSERT_EQ(key.IsValid(i), want_key.has_value()) << "id " << row;
      if (want_key) {
        ASSERT_EQ(key.GetString(i), *want_key) << "id " << row;
        holds_key[static_cast<std::size_t>(positive(row) % kKeys)] = 1;
      } else {
        EXPECT_EQ(c.rank(), 0) << "a null key's row " << row << " is not on rank 0";
      }
      const auto want_flag = flag_of(row);
      ASSERT_EQ(flag.IsValid(i), want_flag.has_value()) << "id " << row;
      if (want_flag) {
        EXPECT_EQ(flag.Value(i), *want_flag) << "id " << row;
      }
      const auto want_note = note_of(row);
      ASSERT_EQ(note.IsValid(i), want_note.has_value()) << "id " << row;
      if (want_note) {
        EXPECT_EQ(note.GetString(i), *want_note) << "id " << row;
      }
      const auto want_price = price_of(row);
      ASSERT_EQ(price.IsValid(i), want_price.has_value()) << "id " << row;
      if (want_price) {
        EXPECT_EQ(price.Value(i), *want_price) << "id " << row;
      }
    }
  }

  // Each key on one rank: no two ranks hold rows of the same key.
  std::vector<int> holders(kKeys, 0);
  MPI_Allreduce(holds_key.data(), holders.data(), kKeys, MPI_INT, MPI_SUM, c.world());
  for (int k = 0; k < kKeys; ++k) EXPECT_LE(holders[static_cast<std::size_t>(k)], 1) << "key " << k;

  // Every id once over all ranks.
  const int mine = static_cast<int>(ids.size());
  std::vector<int> counts(static_cast<std::size_t>(c.size())), displacements(static_cast<std::size_t>(c.size()), 0);
  MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, c.world());
  for (std::size_t r = 1; r < counts.size(); ++r) displacements[r] = displacements[r - 1] + counts[r - 1];
  std::vector<std::int64_t> all(static_cast<std::size_t>(displacements.back() + counts.back()));
  MPI_Allgatherv(ids.data(), mine, MPI_INT64_T, all.data(), counts.data(), displacements.data(), MPI_INT64_T,
                 c.world());
  std::sort(all.begin(), all.end());
  ASSERT_EQ(static_cast<std::int64_t>(all.size()), total_rows(c.size()));
  for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], static_cast<std::int64_t>(i));
  if (c.size() > 1) {
    EXPECT_GT(out.rows_moved, 0u);
    EXPECT_GT(out.bytes_sent, 0u);
  }
}

}  // namespace
}  // namespace hpcdb::testing::table_shuffle_test
