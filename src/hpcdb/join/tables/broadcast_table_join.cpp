#include "hpcdb/join/tables/broadcast_table_join.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <span>

#include "hpcdb/join/tables/key_equality.hpp"
#include "hpcdb/join/tables/key_index.hpp"
#include "hpcdb/join/tables/matched_rows.hpp"
#include "hpcdb/join/tables/phase_timer.hpp"
#include "hpcdb/join/tables/result_rows.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/table/located_take.hpp"
#include "hpcdb/table/table_allgather.hpp"

namespace hpcdb {
namespace {

// The join's two sides: the build side whole (every rank's copy) and this
// rank's own share of it, and this rank's share of the probe side.
struct Sides {
  JoinSide build_side;
  const DistributedTable& build_share;
  AllgatheredTable build;
  const DistributedTable& probe;
  std::vector<int> build_keys;
  std::vector<int> probe_keys;
};

// Matching pairs: where the probe row lies in this rank's share, and the
// build row's number in the build side's copy.
struct LocalPairs {
  std::vector<RowLocation> probe;
  std::vector<std::uint32_t> build;
};

// Where every row of `table` lies.
std::vector<RowLocation> locations_of(const DistributedTable& table) {
  std::vector<RowLocation> at;
  at.reserve(static_cast<std::size_t>(table.rows()));
  for (std::size_t b = 0; b < table.batches.size(); ++b) {
    const auto rows = static_cast<std::uint32_t>(table.batches[b]->num_rows());
    for (std::uint32_t r = 0; r < rows; ++r) at.push_back({static_cast<std::uint32_t>(b), r});
  }
  return at;
}

// The first local row number of each batch of `table`, and one past the last.
std::vector<std::uint64_t> batch_firsts(const DistributedTable& table) {
  std::vector<std::uint64_t> first{0};
  for (const auto& batch : table.batches) first.push_back(first.back() + static_cast<std::uint64_t>(batch->num_rows()));
  return first;
}

LocalPairs probe_index(const KeyIndex& index, const DistributedTable& probe, const RowKeys& keys) {
  constexpr std::size_t kAhead = 16;  // rows whose slots are fetched ahead of their probe
  LocalPairs pairs;
  pairs.probe.reserve(keys.keys.size());
  pairs.build.reserve(keys.keys.size());
  const std::size_t n = keys.keys.size();
  std::size_t i = 0;
  for (std::size_t b = 0; b < probe.batches.size(); ++b) {
    const auto rows = static_cast<std::uint32_t>(probe.batches[b]->num_rows());
    for (std::uint32_t r = 0; r < rows; ++r, ++i) {
      if (i + kAhead < n) index.prefetch(keys.keys[i + kAhead]);
      if (!keys.valid[i]) continue;
      index.for_each_match(keys.keys[i], [&](std::uint32_t row) {
        pairs.probe.push_back({static_cast<std::uint32_t>(b), r});
        pairs.build.push_back(row);
      });
    }
  }
  return pairs;
}

std::vector<RowLocation> build_locations(const std::vector<RowLocation>& build_at, std::span<const std::uint32_t> rows) {
  std::vector<RowLocation> at(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) at[i] = build_at[rows[i]];
  return at;
}

// Drops the pairs whose key values differ (hash collisions); returns how many.
std::uint64_t drop_unequal_keys(const Sides& sides, const std::vector<RowLocation>& build_at, LocalPairs& pairs) {
  std::vector<std::uint8_t> keep(pairs.probe.size(), 1);
  const std::vector<RowLocation> build = build_locations(build_at, pairs.build);
  TakeScratch scratch;
  for (std::size_t k = 0; k < sides.probe_keys.size(); ++k) {
    const auto a = take_located(ShareColumn(sides.probe, sides.probe_keys[k]), pairs.probe, scratch);
    const auto b = take_located(ShareColumn(sides.build.table, sides.build_keys[k]), build, scratch);
    keep_equal_rows(*a, *b, keep);
  }
  std::size_t n = 0;
  for (std::size_t i = 0; i < keep.size(); ++i) {
    if (!keep[i]) continue;
    pairs.probe[n] = pairs.probe[i];
    pairs.build[n++] = pairs.build[i];
  }
  const std::uint64_t dropped = keep.size() - n;
  pairs.probe.resize(n);
  pairs.build.resize(n);
  return dropped;
}

// The result rows of the pairs, a slice at a time (all at once for a sink
// that keeps them would only make the scratch larger: the same slices).
void pair_rows_into(const Cluster& cluster, const Sides& sides, const std::vector<RowLocation>& build_at,
                    const LocalPairs& pairs, const TableJoinSpec& spec, const std::shared_ptr<arrow::Schema>& schema,
                    std::uint64_t slice_rows, ResultSink& sink, double& sink_seconds) {
  const std::uint64_t n = pairs.probe.size();
  const std::uint64_t slices =
      allreduce<std::uint64_t>(std::max<std::uint64_t>((n + slice_rows - 1) / slice_rows, 1), MPI_MAX, cluster.world());
  TakeScratch scratch;
  for (std::uint64_t s = 0; s < slices; ++s) {
    const std::uint64_t begin = std::min(n, s * slice_rows), count = std::min(n, begin + slice_rows) - begin;
    const std::span<const RowLocation> probe_at(pairs.probe.data() + begin, count);
    const std::vector<RowLocation> build = build_locations(build_at, {pairs.build.data() + begin, count});
    std::vector<std::shared_ptr<arrow::Array>> columns;
    for (const ResultColumn& c : spec.columns) {
      const bool from_build = c.side == sides.build_side;
      const DistributedTable& table = from_build ? sides.build.table : sides.probe;
      const ShareColumn column(table, table.schema->GetFieldIndex(c.source));
      columns.push_back(take_located(column, from_build ? std::span<const RowLocation>(build) : probe_at, scratch));
    }
    hand_over(sink, arrow::RecordBatch::Make(schema, static_cast<std::int64_t>(count), columns), sink_seconds);
  }
}

// Which build rows some rank matched: this rank's flags OR-ed over all ranks.
void agree_build_matches(const Cluster& cluster, std::vector<std::uint8_t>& flags) {
  constexpr std::size_t kChunk = std::size_t{1} << 30;
  for (std::size_t at = 0; at < flags.size(); at += kChunk) {
    const auto count = static_cast<int>(std::min(kChunk, flags.size() - at));
    MPI_Allreduce(MPI_IN_PLACE, flags.data() + at, count, MPI_UINT8_T, MPI_BOR, cluster.world());
  }
}

}  // namespace

TableJoinOutcome broadcast_join_tables(const Cluster& cluster, const DistributedTable& left,
                                       const DistributedTable& right, const TableJoinSpec& spec,
                                       const TableJoinSettings& settings, bool broadcast_left, ResultSink& sink) {
  TableJoinOutcome out;
  out.schema = result_schema(*left.schema, *right.schema, spec);
  out.left_is_inner = broadcast_left;
  out.tuple_bytes = 0;
  std::vector<std::shared_ptr<arrow::DataType>> key_types;
  for (const std::string& k : spec.left_keys) key_types.push_back(left.schema->GetFieldByName(k)->type());
  out.encoding = key_encoding_for(key_types);
  PhaseTimer timer(cluster);

  // broadcast
  const DistributedTable& build_share = broadcast_left ? left : right;
  const DistributedTable& probe = broadcast_left ? right : left;
  std::uint64_t sent = 0;
  Sides sides{broadcast_left ? JoinSide::left : JoinSide::right, build_share, allgather_table(cluster, build_share, sent),
              probe, indices_of(*build_share.schema, broadcast_left ? spec.left_keys : spec.right_keys),
              indices_of(*probe.schema, broadcast_left ? spec.right_keys : spec.left_keys)};
  out.broadcast_bytes = allreduce(sent, MPI_SUM, cluster.world());
  timer.phase(out.phases, "broadcast");

  // join
  LocalPairs pairs;
  {
    const RowKeys build_keys = row_keys(sides.build.table, sides.build_keys, out.encoding, settings.hash_bits);
    const RowKeys probe_keys = row_keys(probe, sides.probe_keys, out.encoding, settings.hash_bits);
    const auto me = static_cast<std::size_t>(cluster.rank());
    const auto own_begin = build_keys.valid.begin() + static_cast<std::ptrdiff_t>(sides.build.first_row[me]);
    const auto own_nulls = static_cast<std::uint64_t>(
        std::count(own_begin, own_begin + build_share.rows(), std::uint8_t{0}));
    (broadcast_left ? out.left_keyless : out.right_keyless) = allreduce(own_nulls, MPI_SUM, cluster.world());
    (broadcast_left ? out.right_keyless : out.left_keyless) = allreduce(probe_keys.nulls, MPI_SUM, cluster.world());
    const KeyIndex index(build_keys);
    pairs = probe_index(index, probe, probe_keys);
  }
  const std::vector<RowLocation> build_at = locations_of(sides.build.table);
  timer.phase(out.phases, "join");

  if (out.encoding == KeyEncoding::hashed) {
    out.collisions = allreduce(drop_unequal_keys(sides, build_at, pairs), MPI_SUM, cluster.world());
    timer.phase(out.phases, "verify");
  }
  out.pairs = allreduce<std::uint64_t>(pairs.probe.size(), MPI_SUM, cluster.world());

  // materialize
  double sink_seconds = 0;
  if (spec.how != JoinHow::semi && spec.how != JoinHow::anti) {
    pair_rows_into(cluster, sides, build_at, pairs, spec, out.schema, settings.slice_rows, sink, sink_seconds);
  }
  const auto own_flags = [&](JoinSide side) {
    if (side != sides.build_side) {
      const std::vector<std::uint64_t> first = batch_firsts(probe);
      std::vector<std::uint8_t> flags(static_cast<std::size_t>(probe.rows()), 0);
      for (const RowLocation& at : pairs.probe) flags[first[at.batch] + at.row] = 1;
      return flags;
    }
    std::vector<std::uint8_t> flags(static_cast<std::size_t>(sides.build.table.rows()), 0);
    for (const std::uint32_t row : pairs.build) flags[row] = 1;
    agree_build_matches(cluster, flags);
    const auto me = static_cast<std::size_t>(cluster.rank());
    return std::vector<std::uint8_t>(flags.begin() + static_cast<std::ptrdiff_t>(sides.build.first_row[me]),
                                     flags.begin() + static_cast<std::ptrdiff_t>(sides.build.first_row[me + 1]));
  };
  if (keeps_unmatched_left(spec.how) || spec.how == JoinHow::semi) {
    const std::uint8_t wanted = spec.how == JoinHow::semi ? 1 : 0;
    hand_over(sink, own_rows(left, JoinSide::left, rows_flagged(own_flags(JoinSide::left), wanted), spec, out.schema),
              sink_seconds);
  }
  if (keeps_unmatched_right(spec.how)) {
    hand_over(sink, own_rows(right, JoinSide::right, rows_flagged(own_flags(JoinSide::right), 0), spec, out.schema),
              sink_seconds);
  }
  timer.phase(out.phases, "materialize", sink.phase(), sink_seconds);
  return out;
}

}  // namespace hpcdb
