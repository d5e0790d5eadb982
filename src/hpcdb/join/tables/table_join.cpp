#include "hpcdb/join/tables/table_join.hpp"

#include <arrow/array/util.h>

#include <algorithm>
#include <optional>
#include <span>

#include "hpcdb/core/error.hpp"
#include "hpcdb/join/fail_fast.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/tables/key_equality.hpp"
#include "hpcdb/join/tables/key_relations.hpp"
#include "hpcdb/join/tables/matched_rows.hpp"
#include "hpcdb/join/tables/pair_rows.hpp"
#include "hpcdb/join/tables/phase_timer.hpp"
#include "hpcdb/join/tables/result_rows.hpp"
#include "hpcdb/join/tables/row_fetch.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/column_take.hpp"
#include "hpcdb/table/column_types.hpp"
#include "hpcdb/table/memory_pool.hpp"

namespace hpcdb {
namespace {

PairRows pair_rows(const std::vector<MatchPair>& pairs, bool left_is_inner) {
  PairRows rows;
  rows.left.reserve(pairs.size());
  rows.right.reserve(pairs.size());
  for (const MatchPair& p : pairs) {
    rows.left.push_back(left_is_inner ? p.rid_r : p.rid_s);
    rows.right.push_back(left_is_inner ? p.rid_s : p.rid_r);
  }
  return rows;
}

// Whether the result's columns of the left side take more bytes a row than
// the right side's (strings counted as 16): the pairs are put in that
// side's row order.
bool left_columns_wider(const TableJoinSpec& spec, const arrow::Schema& schema) {
  int left = 0, right = 0;
  for (std::size_t c = 0; c < spec.columns.size(); ++c) {
    const arrow::DataType& type = *schema.field(static_cast<int>(c))->type();
    (spec.columns[c].side == JoinSide::left ? left : right) += is_string_type(type) ? 16 : fixed_value_bytes(type);
  }
  return left >= right;
}

// Drops the pairs whose key values differ (hash collisions); returns how many.
std::uint64_t verify_pairs(const Cluster& cluster, const DistributedTable& left, const DistributedTable& right,
                           const RowDirectory& left_rows, const RowDirectory& right_rows, const TableJoinSpec& spec,
                           PairRows& pairs, std::uint64_t& bytes_sent) {
  std::vector<std::uint8_t> keep(pairs.left.size(), 1);
  const RowFetch from_left(cluster, left, left_rows, pairs.left, bytes_sent);
  const RowFetch from_right(cluster, right, right_rows, pairs.right, bytes_sent);
  const std::vector<int> lk = indices_of(*left.schema, spec.left_keys), rk = indices_of(*right.schema, spec.right_keys);
  FetchScratch scratch;
  for (std::size_t k = 0; k < lk.size(); ++k) {
    const auto a = from_left.column(lk[k], scratch, bytes_sent);
    const auto b = from_right.column(rk[k], scratch, bytes_sent);
    keep_equal_rows(*a, *b, keep);
  }
  std::uint64_t dropped = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < keep.size(); ++i) {
    if (!keep[i]) {
      ++dropped;
      continue;
    }
    pairs.left[n] = pairs.left[i];
    pairs.right[n++] = pairs.right[i];
  }
  pairs.left.resize(n);
  pairs.right.resize(n);
  return dropped;
}

// The result rows of the pairs left[i], right[i]: every column fetched.
std::shared_ptr<arrow::RecordBatch> pair_batch(const Cluster& cluster, const DistributedTable& left,
                                               const DistributedTable& right, const RowDirectory& left_rows,
                                               const RowDirectory& right_rows, std::span<const std::uint64_t> left_pairs,
                                               std::span<const std::uint64_t> right_pairs, const TableJoinSpec& spec,
                                               const std::shared_ptr<arrow::Schema>& schema, FetchScratch& scratch,
                                               std::uint64_t& bytes_sent) {
  bool needs_left = false, needs_right = false;
  for (const ResultColumn& c : spec.columns) (c.side == JoinSide::left ? needs_left : needs_right) = true;
  // Every rank takes part in each side's exchanges (they are collective).
  needs_left = allreduce(needs_left ? 1 : 0, MPI_MAX, cluster.world()) == 1;
  needs_right = allreduce(needs_right ? 1 : 0, MPI_MAX, cluster.world()) == 1;
  std::optional<RowFetch> from_left, from_right;
  if (needs_left) from_left.emplace(cluster, left, left_rows, left_pairs, bytes_sent);
  if (needs_right) from_right.emplace(cluster, right, right_rows, right_pairs, bytes_sent);
  std::vector<std::shared_ptr<arrow::Array>> columns;
  for (const ResultColumn& c : spec.columns) {
    const DistributedTable& table = c.side == JoinSide::left ? left : right;
    const RowFetch& fetch = c.side == JoinSide::left ? *from_left : *from_right;
    columns.push_back(fetch.column(table.schema->GetFieldIndex(c.source), scratch, bytes_sent));
  }
  return arrow::RecordBatch::Make(schema, static_cast<std::int64_t>(left_pairs.size()), columns);
}

// Rows of the pairs into the sink in slices of `slice_rows` pairs a rank,
// the fetch buffers of one slice reused by the next (a sink that does not
// keep them lets each slice go before the next is fetched, so the result is
// never in memory whole; one that keeps them holds only the result).
void pair_rows_into(const Cluster& cluster, const DistributedTable& left, const DistributedTable& right,
                    const RowDirectory& left_rows, const RowDirectory& right_rows, const PairRows& pairs,
                    const TableJoinSpec& spec, const std::shared_ptr<arrow::Schema>& schema, std::uint64_t slice_rows,
                    ResultSink& sink, std::uint64_t& bytes_sent, double& sink_seconds) {
  const std::uint64_t n = pairs.left.size();
  const std::uint64_t slice = slice_rows;
  const std::uint64_t slices = allreduce<std::uint64_t>(std::max<std::uint64_t>((n + slice - 1) / slice, 1), MPI_MAX,
                                                        cluster.world());
  const std::span<const std::uint64_t> all_left(pairs.left), all_right(pairs.right);
  FetchScratch scratch;
  for (std::uint64_t s = 0; s < slices; ++s) {
    const std::uint64_t begin = std::min(n, s * slice), count = std::min(n, begin + slice) - begin;
    hand_over(sink,
              pair_batch(cluster, left, right, left_rows, right_rows, all_left.subspan(begin, count),
                         all_right.subspan(begin, count), spec, schema, scratch, bytes_sent),
              sink_seconds);
    agree_on_sink(sink, sink_seconds);  // a slice is collective anyway
  }
}

}  // namespace

std::shared_ptr<arrow::Schema> result_schema(const arrow::Schema& left, const arrow::Schema& right,
                                             const TableJoinSpec& spec) {
  // A column holds nulls where its source does, and where the join keeps
  // the other side's unmatched rows (outer joins).
  const bool left_filled = keeps_unmatched_right(spec.how), right_filled = keeps_unmatched_left(spec.how);
  arrow::FieldVector fields;
  for (const ResultColumn& c : spec.columns) {
    const bool left_side = c.side == JoinSide::left;
    const auto& source = (left_side ? left : right).GetFieldByName(c.source);
    fields.push_back(arrow::field(c.name, source->type(), source->nullable() || (left_side ? left_filled : right_filled)));
  }
  return arrow::schema(fields);
}

TableJoinOutcome join_tables(const Cluster& cluster, const DistributedTable& left, const DistributedTable& right,
                             const TableJoinSpec& spec, const TableJoinSettings& settings, ResultSink& sink) {
  TableJoinOutcome out;
  out.schema = result_schema(*left.schema, *right.schema, spec);
  PhaseTimer timer(cluster);
  // keys: tuples and the operator's plan, agreed by all ranks.
  std::vector<std::shared_ptr<arrow::DataType>> key_types;
  for (const std::string& k : spec.left_keys) key_types.push_back(left.schema->GetFieldByName(k)->type());
  out.encoding = key_encoding_for(key_types);
  KeyRelations relations = make_key_relations(cluster, left, right, indices_of(*left.schema, spec.left_keys),
                                               indices_of(*right.schema, spec.right_keys), out.encoding, settings.hash_bits);
  out.left_is_inner = relations.left_is_inner;
  out.left_keyless = relations.left_keyless;
  out.right_keyless = relations.right_keyless;
  JoinConfigs configs = settings.operators;
  configs.radix.keep_pairs = configs.sort_merge.keep_pairs = true;
  JoinPlan plan;
  run_collectively(cluster.world(), [&] { plan = plan_join(agreed_join_facts(cluster, relations.inner, relations.outer), configs); });
  out.tuple_bytes = tuple_bytes_of(plan);
  const RowDirectory left_rows(cluster, left), right_rows(cluster, right);
  timer.phase(out.phases, "keys");

  std::unique_ptr<DistributedJoin> join;
  fail_fast(cluster, [&] {
    join = make_join(cluster, plan);
    out.operator_result = join->run(relations.inner, relations.outer);
  });
  PairRows pairs = pair_rows(out.operator_result.pairs, out.left_is_inner);
  out.operator_result.pairs = {};
  order_pairs(pairs, left_columns_wider(spec, *out.schema));
  join.reset();
  relations = KeyRelations{};
  timer.phase(out.phases, "join");

  std::uint64_t sent = 0;
  if (out.encoding == KeyEncoding::hashed) {
    const std::uint64_t dropped = verify_pairs(cluster, left, right, left_rows, right_rows, spec, pairs, sent);
    out.collisions = allreduce(dropped, MPI_SUM, cluster.world());
    timer.phase(out.phases, "verify");
  }
  out.pairs = allreduce<std::uint64_t>(pairs.left.size(), MPI_SUM, cluster.world());

  double sink_seconds = 0;
  if (spec.how != JoinHow::semi && spec.how != JoinHow::anti) {
    pair_rows_into(cluster, left, right, left_rows, right_rows, pairs, spec, out.schema, settings.slice_rows, sink, sent,
                   sink_seconds);
  }
  if (keeps_unmatched_left(spec.how) || spec.how == JoinHow::semi) {
    const std::vector<std::uint8_t> matched = matched_rows(cluster, left_rows, pairs.left, sent);
    const std::uint8_t wanted = spec.how == JoinHow::semi ? 1 : 0;
    hand_over(sink, own_rows(left, JoinSide::left, rows_flagged(matched, wanted), spec, out.schema), sink_seconds);
  }
  if (keeps_unmatched_right(spec.how)) {
    const std::vector<std::uint8_t> matched = matched_rows(cluster, right_rows, pairs.right, sent);
    hand_over(sink, own_rows(right, JoinSide::right, rows_flagged(matched, 0), spec, out.schema), sink_seconds);
  }
  agree_on_sink(sink, sink_seconds);
  out.materialize_bytes = allreduce(sent, MPI_SUM, cluster.world());
  timer.phase(out.phases, "materialize", sink.phase(), sink_seconds);
  return out;
}

}  // namespace hpcdb
