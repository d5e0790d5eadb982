#include "hpcdb/shuffle/tables/table_shuffle.hpp"

#include <arrow/record_batch.h>

#include "hpcdb/net/collectives.hpp"
#include "hpcdb/table/batch_exchange.hpp"
#include "hpcdb/table/column_take.hpp"
#include "hpcdb/table/key_hash.hpp"
#include "hpcdb/table/row_keys.hpp"

namespace hpcdb {
namespace {

// Each destination's local rows, in order.
std::vector<std::vector<std::uint64_t>> rows_by_destination(const DistributedTable& table, const std::vector<int>& key_columns,
                                                            int ranks) {
  // Always hashed: a direct integer key would send neighbouring keys to one rank.
  const RowKeys keys = row_keys(table, key_columns, KeyEncoding::hashed);
  std::vector<std::vector<std::uint64_t>> rows(static_cast<std::size_t>(ranks));
  for (std::size_t i = 0; i < keys.keys.size(); ++i) {
    const int destination = keys.valid[i] ? destination_of(keys.keys[i], ranks) : 0;
    rows[static_cast<std::size_t>(destination)].push_back(i);
  }
  return rows;
}

}  // namespace

TableShuffleOutcome shuffle_table(const Cluster& cluster, const DistributedTable& table, const std::vector<int>& key_columns) {
  TableShuffleOutcome out;
  MPI_Barrier(cluster.world());
  double start = MPI_Wtime();
  const auto phase_done = [&](const std::string& name) {
    const Spread spread = spread_over_ranks(MPI_Wtime() - start, cluster.world());
    out.phases.push_back({name, spread.max, spread.mean});
    start = MPI_Wtime();
  };
  const int ranks = cluster.size();
  const std::vector<std::vector<std::uint64_t>> rows = rows_by_destination(table, key_columns, ranks);
  std::vector<std::shared_ptr<arrow::ChunkedArray>> columns;
  for (int c = 0; c < table.schema->num_fields(); ++c) columns.push_back(share_column(table, c));
  std::vector<std::shared_ptr<arrow::RecordBatch>> outgoing(static_cast<std::size_t>(ranks));
  std::uint64_t moved = 0;
  for (int d = 0; d < ranks; ++d) {
    const auto& mine = rows[static_cast<std::size_t>(d)];
    if (mine.empty()) continue;
    std::vector<std::shared_ptr<arrow::Array>> taken;
    for (const auto& column : columns) taken.push_back(take_rows(*column, mine));
    outgoing[static_cast<std::size_t>(d)] = arrow::RecordBatch::Make(table.schema, static_cast<std::int64_t>(mine.size()), taken);
    if (d != cluster.rank()) moved += mine.size();
  }
  phase_done("partition");
  std::uint64_t sent = 0;
  const auto received = exchange_batches(cluster, table.schema, outgoing, sent);
  outgoing.clear();
  out.result.schema = table.schema;
  for (const auto& batch : received) {
    if (batch->num_rows() > 0) out.result.batches.push_back(batch);
  }
  out.bytes_sent = allreduce(sent, MPI_SUM, cluster.world());
  out.rows_moved = allreduce(moved, MPI_SUM, cluster.world());
  phase_done("exchange");
  return out;
}

}  // namespace hpcdb
