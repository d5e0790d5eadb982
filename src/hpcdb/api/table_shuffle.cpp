#include "hpcdb/api/table_shuffle.hpp"

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/process_memory.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/shuffle/tables/table_shuffle.hpp"
#include "hpcdb/table/schema_agreement.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/column_types.hpp"
#include "hpcdb/table/progress_line.hpp"
#include "hpcdb/table/table_source.hpp"

namespace hpcdb {
namespace {

std::vector<int> key_columns(const arrow::Schema& schema, const std::vector<std::string>& on) {
  if (on.empty()) throw UsageError("the shuffle needs key columns (--on)");
  std::vector<int> indices;
  for (const std::string& name : on) {
    const int index = schema.GetFieldIndex(name);
    if (index < 0) throw UsageError("the input table has no column '" + name + "' to shuffle on");
    if (key_class_of(*schema.field(index)->type()) == KeyClass::none) {
      throw UsageError("column '" + name + "' has type " + schema.field(index)->type()->ToString() +
                       "; keys are integers, date32, timestamps or strings");
    }
    indices.push_back(index);
  }
  return indices;
}

DistributedTable read_input(const Cluster& cluster, const TableShuffleRequest& request, ProgressLine& progress) {
  if (!request.table) return read_table(cluster, request.input, "input", &progress);
  std::shared_ptr<arrow::Table> table;
  run_collectively(cluster.world(), [&] { table = as_engine_table(request.table, "input"); });
  return from_arrow_table(agreed_share(cluster, table, "input"));
}

}  // namespace

TableShuffleResult run_table_shuffle(const Cluster& cluster, const TableShuffleRequest& request) {
  PeakMemoryMeter memory;
  memory.start();
  ProgressLine progress(request.progress && cluster.rank() == 0);
  TableShuffleResult result;
  const double start = MPI_Wtime();
  if (!request.output.directory.empty()) check_table_output(cluster, request.output, "--output");
  progress.phase("reading");
  const DistributedTable share = read_input(cluster, request, progress);
  std::vector<int> keys;
  run_collectively(cluster.world(), [&] { keys = key_columns(*share.schema, request.on); });
  const Spread read = spread_over_ranks(MPI_Wtime() - start, cluster.world());
  result.phases.push_back({"read", read.max, read.mean});

  progress.phase("shuffling");
  TableShuffleOutcome outcome = shuffle_table(cluster, share, keys);
  result.phases.insert(result.phases.end(), outcome.phases.begin(), outcome.phases.end());
  result.bytes_sent = outcome.bytes_sent;
  result.rows_moved = outcome.rows_moved;
  const auto mine = static_cast<std::uint64_t>(outcome.result.rows());
  result.rows = allreduce(mine, MPI_SUM, cluster.world());
  result.min_rank_rows = allreduce(mine, MPI_MIN, cluster.world());
  result.max_rank_rows = allreduce(mine, MPI_MAX, cluster.world());
  if (!request.output.directory.empty()) {
    progress.phase("writing");
    const double write_start = MPI_Wtime();
    const WriteStats written = write_parquet_directory(cluster, outcome.result, request.output, &progress);
    result.output_bytes = allreduce(written.bytes, MPI_SUM, cluster.world());
    result.output_encodings = written.encodings;
    const Spread spread = spread_over_ranks(MPI_Wtime() - write_start, cluster.world());
    result.phases.push_back({"write", spread.max, spread.mean});
  }
  result.table = to_arrow_table(outcome.result);
  result.seconds = allreduce(MPI_Wtime() - start, MPI_MAX, cluster.world());
  result.peak_bytes_per_rank = allreduce(memory.stop().total(), MPI_MAX, cluster.world());
  return result;
}

}  // namespace hpcdb
