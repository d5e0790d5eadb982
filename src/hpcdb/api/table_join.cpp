#include "hpcdb/api/table_join.hpp"

#include <arrow/util/byte_size.h>

#include <fmt/format.h>

#include <optional>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/process_memory.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/join_memory.hpp"
#include "hpcdb/join/tables/broadcast_table_join.hpp"
#include "hpcdb/join/tables/table_join.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/table/schema_agreement.hpp"
#include "hpcdb/table/column_types.hpp"
#include "hpcdb/table/progress_line.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/table_source.hpp"

namespace hpcdb {
namespace {

// A side's schema, rows and bytes before anything is read.
struct SideFacts {
  std::shared_ptr<arrow::Schema> schema;
  std::uint64_t rows = 0;
  std::uint64_t bytes = 0;
  std::unique_ptr<TableSource> source;  // files only
  bool resident = false;                // in memory before the join (not read by it)
};

// An in-memory side with the engine's column types (a file's are cast as it
// is read), its schema checked to be every rank's.
TableJoinSide with_engine_types(const Cluster& cluster, const TableJoinSide& side, const std::string& label) {
  TableJoinSide converted = side;
  if (!side.table) return converted;
  run_collectively(cluster.world(), [&] { converted.table = as_engine_table(side.table, label); });
  converted.table = agreed_share(cluster, converted.table, label);
  return converted;
}

SideFacts inspect_side(const Cluster& cluster, const TableJoinSide& side, const std::string& label) {
  SideFacts facts;
  if (side.table) {
    facts.schema = side.table->schema();
    facts.rows = allreduce<std::uint64_t>(static_cast<std::uint64_t>(side.table->num_rows()), MPI_SUM, cluster.world());
    return facts;
  }
  facts.source = open_table(cluster, side.input, label);
  facts.schema = facts.source->schema();
  facts.rows = facts.source->total_rows();
  facts.bytes = facts.source->estimated_bytes();
  return facts;
}

// The side's columns the join reads: opened (files) or measured (in memory),
// so that their size is known before anything is read.
void open_reads(const Cluster& cluster, const TableJoinSide& side, const std::vector<std::string>& reads,
                const std::string& label, SideFacts& facts) {
  if (side.table) {
    // The bytes the share's columns refer to (a slice of a larger table's
    // buffers counts its part). They are in memory already: `resident`.
    std::uint64_t bytes = 0;
    run_collectively(cluster.world(), [&] {
      for (const std::string& name : reads) {
        const auto column = side.table->GetColumnByName(name);
        bytes += static_cast<std::uint64_t>(value_of(arrow::util::ReferencedBufferSize(*column),
                                                     "cannot measure the " + label + " table's columns"));
      }
    });
    facts.bytes = allreduce<std::uint64_t>(bytes, MPI_SUM, cluster.world());
    facts.resident = true;
    return;
  }
  TableInput input = side.input;
  input.columns = reads;
  facts.source = open_table(cluster, input, label);
  facts.bytes = facts.source->estimated_bytes();
}

// The share of one side with the columns the join reads.
DistributedTable read_side(const TableJoinSide& side, const std::vector<std::string>& reads, SideFacts& facts,
                           const std::string& label, ProgressLine* progress) {
  if (side.table) {
    std::vector<int> indices;
    for (const std::string& name : reads) indices.push_back(side.table->schema()->GetFieldIndex(name));
    return from_arrow_table(value_of(side.table->SelectColumns(indices), "cannot select the " + label + " table's columns"));
  }
  return facts.source->read(progress);
}

// Bytes a result pair takes while the join runs (the operator's pairs, then
// their copy as row numbers and the buffer sorting it) and while the result
// is fetched (the row numbers, each side's located requests, one side's
// placement, and the send and receive buffers of the widest column).
constexpr std::uint64_t kPairBytesJoining = 3 * sizeof(MatchPair);
constexpr std::uint64_t kPairBytesFetching = 2 * sizeof(std::uint64_t) + 3 * sizeof(std::uint64_t) + 2 * 16;
// A broadcast join's bytes per build row besides its columns, at the index's
// peak: the keys as computed (9), the hashed index's key and chain (12) and
// up to 16 bytes of slots, its key flag and match flag. Its pairs live one
// probe batch at a time.
constexpr std::uint64_t kBroadcastBytesPerBuildRow = 9 + 12 + 16 + 1 + 1;

// What a rank needs besides its inputs, and how that adds up.
struct MemoryNeed {
  std::uint64_t bytes = 0;
  std::string parts;
};

MemoryNeed partitioned_need(const Cluster& cluster, const SideFacts& left, const SideFacts& right,
                            const TableJoinRequest& request, std::uint64_t rank_rows, std::uint64_t fetched) {
  const auto ranks = static_cast<std::uint64_t>(cluster.size());
  const std::uint64_t tuples = (left.rows + right.rows) / ranks * sizeof(Tuple);
  JoinConfigs configs = request.operators;
  configs.radix.keep_pairs = configs.sort_merge.keep_pairs = true;
  const JoinPlan least = plan_join(densest_join_facts(cluster, std::min(left.rows, right.rows), std::max(left.rows, right.rows)), configs);
  const std::uint64_t operator_bytes = memory_of(least).total();
  const std::uint64_t joining = tuples + operator_bytes + rank_rows * kPairBytesJoining;
  const std::uint64_t fetching = rank_rows * kPairBytesFetching + fetched;
  return {std::max(joining, fetching),
          fmt::format("the larger of joining (key tuples {}, the operator's buffers {}, the pairs {}) and fetching the "
                      "result ({}, with the pairs' bookkeeping {})",
                      format_bytes(static_cast<double>(tuples)), format_bytes(static_cast<double>(operator_bytes)),
                      format_bytes(static_cast<double>(rank_rows * kPairBytesJoining)),
                      format_bytes(static_cast<double>(fetched)),
                      format_bytes(static_cast<double>(rank_rows * kPairBytesFetching)))};
}

MemoryNeed broadcast_need(const Cluster& cluster, const SideFacts& build, std::uint64_t fetched) {
  const auto ranks = static_cast<std::uint64_t>(cluster.size());
  // Every rank's share of the build side (less its own, when it is in memory
  // already), and its own once more (with other ranks). The share is no
  // longer copied to be sent (table_allgather.hpp), but the term stays: it
  // stands in for what the estimate does not count (the readers' buffers):
  // SF10 lineitem and orders on 2 ranks, 3.0 GiB estimated and 2.1 GiB peak
  // a rank written to files, 4.8 and 2.9 GiB kept in memory.
  const std::uint64_t copy = (build.resident ? build.bytes - build.bytes / ranks : build.bytes) +
                             (ranks > 1 ? build.bytes / ranks : 0);
  const std::uint64_t index = build.rows * kBroadcastBytesPerBuildRow;
  return {copy + index + fetched,
          fmt::format("the broadcast side's copy {}, its index {}, the result {}", format_bytes(static_cast<double>(copy)),
                      format_bytes(static_cast<double>(index)), format_bytes(static_cast<double>(fetched)))};
}

// What a rank needs: its inputs throughout, and on top of them what its
// strategy needs.
MemoryNeed memory_per_rank(const Cluster& cluster, const SideFacts& left, const SideFacts& right,
                           const TableJoinRequest& request, const StrategyChoice& choice) {
  const auto ranks = static_cast<std::uint64_t>(cluster.size());
  // What the join reads; a side in memory already is not counted again.
  const std::uint64_t inputs = ((left.resident ? 0 : left.bytes) + (right.resident ? 0 : right.bytes)) / ranks;
  const double left_row = left.rows ? static_cast<double>(left.bytes) / static_cast<double>(left.rows) : 0;
  const double right_row = right.rows ? static_cast<double>(right.bytes) / static_cast<double>(right.rows) : 0;
  const std::uint64_t result_rows = request.how == JoinHow::full ? left.rows + right.rows : std::max(left.rows, right.rows);
  const std::uint64_t rank_rows = result_rows / ranks;
  const auto result = static_cast<std::uint64_t>((left_row + right_row) * static_cast<double>(rank_rows));
  // A result written to files is made a slice at a time.
  const std::uint64_t fetched = request.output.directory.empty()
                                    ? result
                                    : std::min(result, static_cast<std::uint64_t>((left_row + right_row) *
                                                                                  static_cast<double>(kResultSliceRows)));
  const MemoryNeed need = choice.strategy == TableJoinStrategy::broadcast
                              ? broadcast_need(cluster, choice.broadcast_left ? left : right, fetched)
                              : partitioned_need(cluster, left, right, request, rank_rows, fetched);
  return {inputs + need.bytes + kRankBaseBytes,
          fmt::format("inputs {}, then {}", format_bytes(static_cast<double>(inputs)), need.parts)};
}

std::optional<std::string> shortfall_of(const Cluster& cluster, const MemoryNeed& per_rank) {
  return memory_shortfall(per_rank.bytes * static_cast<std::uint64_t>(cluster.node_size()));
}

// The strategy (auto: broadcast only if its copy fits; partitioned otherwise),
// refused before reading when it cannot fit in this node's memory. Returns
// the estimate of a rank's memory.
std::uint64_t plan_strategy(const Cluster& cluster, const SideFacts& left, const SideFacts& right,
                            const TableJoinRequest& request, StrategyChoice& choice) {
  choice = choose_table_join_strategy(request.strategy, {left.rows, right.rows, left.bytes, right.bytes}, cluster.size());
  MemoryNeed need = memory_per_rank(cluster, left, right, request, choice);
  if (request.strategy == TableJoinStrategy::automatic && choice.strategy == TableJoinStrategy::broadcast) {
    // Every rank falls back if any would be short (nodes differ in free memory).
    const std::optional<std::string> shortfall = shortfall_of(cluster, need);
    if (allreduce(shortfall ? 1 : 0, MPI_MAX, cluster.world()) == 1) {
      choice = {TableJoinStrategy::partitioned, false,
                "partitioned: a copy of the smaller side on every rank would not fit in memory (" + need.parts +
                    (shortfall ? ": " + *shortfall : std::string(" on some node")) + ")"};
      need = memory_per_rank(cluster, left, right, request, choice);
    }
  }
  if (const auto shortfall = shortfall_of(cluster, need)) {
    throw UsageError(fmt::format("this {} join ({} rank{} x {}: {}) {}; read fewer columns (--columns){}, or spread the "
                                 "job over more nodes",
                                 to_string(choice.strategy), cluster.node_size(), cluster.node_size() == 1 ? "" : "s",
                                 format_bytes(static_cast<double>(need.bytes)), need.parts, *shortfall,
                                 choice.strategy == TableJoinStrategy::broadcast ? ", --strategy partitioned" : ""));
  }
  return need.bytes;
}

std::uint64_t peak_over_ranks(const Cluster& cluster, const PeakMemoryMeter& meter) {
  return allreduce(meter.stop().total(), MPI_MAX, cluster.world());
}

}  // namespace

TableJoinResult run_table_join(const Cluster& cluster, const TableJoinRequest& request) {
  PeakMemoryMeter memory;
  memory.start();
  ProgressLine progress(request.progress && cluster.rank() == 0);
  TableJoinResult result;
  const double start = MPI_Wtime();
  double phase_start = start;
  const auto phase_done = [&](const std::string& name) {
    const Spread spread = spread_over_ranks(MPI_Wtime() - phase_start, cluster.world());
    result.phases.push_back({name, spread.max, spread.mean});
    phase_start = MPI_Wtime();
  };

  // Before reading: the schemas, the result's columns, the output, the memory.
  progress.phase("reading");
  const TableJoinSide left_side = with_engine_types(cluster, request.left, "left");
  const TableJoinSide right_side = with_engine_types(cluster, request.right, "right");
  SideFacts left = inspect_side(cluster, left_side, "left");
  SideFacts right = inspect_side(cluster, right_side, "right");
  TableJoinSpec spec;
  const bool types_known = !(left.source && left.source->format() == TableFormat::csv) &&
                           !(right.source && right.source->format() == TableFormat::csv);
  run_collectively(cluster.world(), [&] {
    spec = resolve_join_spec(*left.schema, *right.schema, request.on, request.how, request.columns, request.suffixes,
                             types_known);
  });
  if (!request.output.directory.empty()) check_table_output(cluster, request.output, "--output");
  open_reads(cluster, left_side, spec.left_reads, "left", left);
  open_reads(cluster, right_side, spec.right_reads, "right", right);
  StrategyChoice choice;
  run_collectively(cluster.world(), [&] {
    result.plan.estimate_bytes_per_rank = plan_strategy(cluster, left, right, request, choice);
  });

  DistributedTable left_share = read_side(left_side, spec.left_reads, left, "left", &progress);
  DistributedTable right_share = read_side(right_side, spec.right_reads, right, "right", &progress);
  result.left_rows = allreduce<std::uint64_t>(static_cast<std::uint64_t>(left_share.rows()), MPI_SUM, cluster.world());
  result.right_rows = allreduce<std::uint64_t>(static_cast<std::uint64_t>(right_share.rows()), MPI_SUM, cluster.world());
  const auto row_bytes = [&](const DistributedTable& share, std::uint64_t rows) {
    const auto bytes = allreduce<std::uint64_t>(share.bytes(), MPI_SUM, cluster.world());
    return rows ? static_cast<double>(bytes) / static_cast<double>(rows) : 0.0;
  };
  result.plan.left_row_bytes = row_bytes(left_share, result.left_rows);
  result.plan.right_row_bytes = row_bytes(right_share, result.right_rows);
  if (!types_known) {  // CSV columns have their types now
    run_collectively(cluster.world(), [&] {
      spec = resolve_join_spec(*left_share.schema, *right_share.schema, request.on, request.how, request.columns,
                               request.suffixes);
    });
  }
  phase_done("read");

  // Rows count as they are written (none while the keys are joined).
  progress.phase(request.output.directory.empty() ? "joining" : "joining and writing");
  TableJoinSettings settings{request.operators, request.testing_hash_bits};
  if (request.testing_slice_rows > 0) settings.slice_rows = request.testing_slice_rows;
  const std::shared_ptr<arrow::Schema> schema = result_schema(*left_share.schema, *right_share.schema, spec);
  // Written as it is fetched, or kept in memory.
  std::optional<ParquetDirectoryWriter> files;
  std::optional<TableSink> kept;
  if (!request.output.directory.empty()) {
    // A guess of the result's size for the space check: the inputs' (a
    // foreign-key join's result has about the rows of its larger side).
    const auto inputs = allreduce<std::uint64_t>(left_share.bytes() + right_share.bytes(), MPI_SUM, cluster.world());
    files.emplace(cluster, schema, request.output, inputs, &progress);
  } else {
    kept.emplace(schema);
  }
  ResultSink& sink = files ? static_cast<ResultSink&>(*files) : static_cast<ResultSink&>(*kept);
  TableJoinOutcome outcome =
      choice.strategy == TableJoinStrategy::broadcast
          ? broadcast_join_tables(cluster, left_share, right_share, spec, settings, choice.broadcast_left, sink)
          : join_tables(cluster, left_share, right_share, spec, settings, sink);
  left_share = {};
  right_share = {};
  for (PhaseTime& p : outcome.phases) result.phases.push_back({p.name == "keys" ? "plan" : p.name, p.max, p.mean});
  phase_start = MPI_Wtime();
  result.plan.strategy = choice.strategy;
  result.plan.algorithm = request.operators.algorithm;
  result.plan.encoding = outcome.encoding;
  result.plan.left_is_build = outcome.left_is_inner;
  result.plan.tuple_bytes = outcome.tuple_bytes;
  result.plan.materialization =
      choice.strategy == TableJoinStrategy::broadcast
          ? choice.reason
          : fmt::format("{}; late materialization: the join moves {}-byte <key, rid> tuples, then each result column "
                        "is fetched for the matching pairs from the rows' owners (rows of {:.0f} and {:.0f} bytes)",
                        choice.reason, outcome.tuple_bytes, result.plan.left_row_bytes, result.plan.right_row_bytes);
  for (const ResultColumn& c : spec.columns) result.plan.result_columns.push_back(c.name);
  result.pairs = outcome.pairs;
  result.hash_collisions = outcome.collisions;
  result.keyless_rows = outcome.left_keyless + outcome.right_keyless;
  result.join_bytes_sent = outcome.operator_result.bytes_sent;
  result.materialize_bytes_sent = outcome.materialize_bytes;
  result.broadcast_bytes_sent = outcome.broadcast_bytes;
  result.key_join = std::move(outcome.operator_result);
  if (files) {
    const double closing = MPI_Wtime();
    const WriteStats written = files->commit();
    const Spread closed = spread_over_ranks(MPI_Wtime() - closing, cluster.world());
    for (PhaseTime& p : result.phases) {
      if (p.name == "write") p = {p.name, p.max + closed.max, p.mean + closed.mean};
    }
    result.output_bytes = allreduce(written.bytes, MPI_SUM, cluster.world());
    result.output_encodings = written.encodings;
    result.result_rows = allreduce<std::uint64_t>(files->rows_written(), MPI_SUM, cluster.world());
    result.table = value_of(arrow::Table::MakeEmpty(schema), "cannot make an empty table");
  } else {
    result.result_rows = allreduce<std::uint64_t>(static_cast<std::uint64_t>(kept->table().rows()), MPI_SUM, cluster.world());
    result.table = to_arrow_table(kept->table());
  }
  result.seconds = allreduce(MPI_Wtime() - start, MPI_MAX, cluster.world());
  result.peak_bytes_per_rank = peak_over_ranks(cluster, memory);
  return result;
}

}  // namespace hpcdb
