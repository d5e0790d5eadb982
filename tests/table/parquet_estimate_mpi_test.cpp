// What opening a Parquet table says reading it will bring: its estimate of
// the bytes in memory is at least what the ranks' shares hold once read,
// for columns that Parquet stores in far fewer bytes than memory holds them
// (dictionary-encoded dates and strings of few distinct values, run-length
// booleans) as for ones it does not.
#include <gtest/gtest.h>

#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/io/file.h>
#include <arrow/table.h>
#include <mpi.h>
#include <parquet/arrow/writer.h>
#include <unistd.h>

#include <filesystem>

#include "hpcdb/net/collectives.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/table_source.hpp"
#include "net/test_cluster.hpp"

namespace hpcdb::testing {
namespace {

// `rows` rows: a date of 12 values, a string of 5 values (5-15 bytes), a
// flag, and an id of distinct values; every column with a null now and then.
std::shared_ptr<arrow::Table> repetitive_table(std::int64_t rows) {
  static const char* const kPriorities[] = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"};
  arrow::Date32Builder dates;
  arrow::StringBuilder priorities;
  arrow::BooleanBuilder flags;
  arrow::Int64Builder ids;
  for (std::int64_t r = 0; r < rows; ++r) {
    const bool null = r % 97 == 3;
    check_arrow(null ? dates.AppendNull() : dates.Append(static_cast<std::int32_t>(9000 + r % 12)), "append");
    check_arrow(null ? priorities.AppendNull() : priorities.Append(kPriorities[r % 5]), "append");
    check_arrow(null ? flags.AppendNull() : flags.Append(r % 3 == 0), "append");
    check_arrow(ids.Append(r * 7919), "append");
  }
  auto schema = arrow::schema({arrow::field("d", arrow::date32()), arrow::field("p", arrow::utf8()),
                               arrow::field("f", arrow::boolean()), arrow::field("id", arrow::int64(), false)});
  return arrow::Table::Make(schema, {value_of(dates.Finish(), "finish"), value_of(priorities.Finish(), "finish"),
                                     value_of(flags.Finish(), "finish"), value_of(ids.Finish(), "finish")});
}

TEST(ParquetEstimate, IsAtLeastWhatTheSharesHold) {
  const Cluster& c = cluster();
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("hpcdb-estimate-" + std::to_string(allreduce<std::uint64_t>(
                                                     c.rank() == 0 ? static_cast<std::uint64_t>(getpid()) : 0,
                                                     MPI_MAX, c.world())) +
                             ".parquet"))
                               .string();
  if (c.rank() == 0) {
    auto file = value_of(arrow::io::FileOutputStream::Open(path), "open");
    check_arrow(parquet::arrow::WriteTable(*repetitive_table(200000), arrow::default_memory_pool(), file, 30000),
                "write");
    check_arrow(file->Close(), "close");
  }
  MPI_Barrier(c.world());
  for (const std::vector<std::string>& columns : {std::vector<std::string>{}, std::vector<std::string>{"p", "d"}}) {
    TableInput input;
    input.path = path;
    input.columns = columns;
    const auto source = open_table(c, input, "input");
    const DistributedTable share = source->read(nullptr);
    std::uint64_t held = 0;
    for (const auto& batch : share.batches) held += batch_bytes(*batch);
    const std::uint64_t all = allreduce(held, MPI_SUM, c.world());
    EXPECT_GE(source->estimated_bytes(), all) << columns.size() << " columns";
    EXPECT_LE(source->estimated_bytes(), 2 * all) << columns.size() << " columns";
  }
  MPI_Barrier(c.world());
  if (c.rank() == 0) std::filesystem::remove(path);
}

}  // namespace
}  // namespace hpcdb::testing
