#include "hpcdb/shuffle/tables/table_shuffle.hpp"

#include <arrow/record_batch.h>

#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/table/batch_exchange.hpp"
#include "hpcdb/table/key_hash.hpp"
#include "hpcdb/table/located_take.hpp"
#include "hpcdb/table/row_keys.hpp"

namespace hpcdb {
namespace {

// Where each destination's rows lie in this rank's share, in order.
std::vector<std::vector<RowLocation>> rows_by_destination(const DistributedTable& table, const std::vector<int>& key_columns,
                                                          int ranks) {
  // Always hashed: a direct integer key would send neighbouring keys to one rank.
  const RowKeys keys = row_keys(table, key_columns, KeyEncoding::hashed);
  std::vector<std::vector<RowLocation>> rows(static_cast<std::size_t>(ranks));
  std::size_t i = 0;
  for (std::size_t b = 0; b < table.batches.size(); ++b) {
    const auto batch_rows = static_cast<std::uint32_t>(table.batches[b]->num_rows());
    for (std::uint32_t r = 0; r < batch_rows; ++r, ++i) {
      const int destination = keys.valid[i] ? destination_of(keys.keys[i], ranks) : 0;
      rows[static_cast<std::size_t>(destination)].push_back({static_cast<std::uint32_t>(b), r});
    }
  }
  return rows;
}

// Each destination's rows as one batch (nullptr where none go).
std::vector<std::shared_ptr<arrow::RecordBatch>> batches_by_destination(
    const DistributedTable& table, const std::vector<std::vector<RowLocation>>& rows) {
  std::vector<ShareColumn> columns;
  for (int c = 0; c < table.schema->num_fields(); ++c) columns.emplace_back(table, c);
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches(rows.size());
  TakeScratch scratch;
  for (std::size_t d = 0; d < rows.size(); ++d) {
    if (rows[d].empty()) continue;
    std::vector<std::shared_ptr<arrow::Array>> taken;
    for (const ShareColumn& column : columns) taken.push_back(take_located(column, rows[d], scratch));
    batches[d] = arrow::RecordBatch::Make(table.schema, static_cast<std::int64_t>(rows[d].size()), taken);
  }
  return batches;
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
  std::vector<std::shared_ptr<arrow::RecordBatch>> outgoing;
  std::uint64_t moved = 0;
  run_collectively(cluster.world(), [&] {
    const std::vector<std::vector<RowLocation>> rows = rows_by_destination(table, key_columns, ranks);
    for (int d = 0; d < ranks; ++d) {
      if (d != cluster.rank()) moved += rows[static_cast<std::size_t>(d)].size();
    }
    outgoing = batches_by_destination(table, rows);
  });
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
