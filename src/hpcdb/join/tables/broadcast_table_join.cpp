#include "hpcdb/join/tables/broadcast_table_join.hpp"

#include <mpi.h>

#include <algorithm>
#include <optional>
#include <span>
#include <utility>

#include "hpcdb/core/cpu_dispatch.hpp"
#include "hpcdb/join/tables/key_equality.hpp"
#include "hpcdb/join/tables/key_index.hpp"
#include "hpcdb/join/tables/matched_rows.hpp"
#include "hpcdb/join/tables/phase_timer.hpp"
#include "hpcdb/join/tables/result_rows.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/table/located_take.hpp"
#include "hpcdb/table/table_allgather.hpp"

namespace hpcdb {
namespace {

// The join's two sides: the build side whole (every rank's copy) and this
// rank's own share of it, and this rank's share of the probe side.
struct Sides {
  JoinSide build_side;
  AllgatheredTable build;
  const DistributedTable& probe;
  std::vector<int> build_keys;
  std::vector<int> probe_keys;
};

// Which rows the result keeps besides the pairs', per side.
struct KeptRows {
  bool pairs = true;         // not semi and anti joins
  bool probe = false;        // the probe side's rows flagged `probe_wanted`
  bool build = false;        // the build side's rows flagged `build_wanted`
  std::uint8_t probe_wanted = 0;  // 1: matched (semi), 0: unmatched
  std::uint8_t build_wanted = 0;
};

KeptRows kept_rows(JoinHow how, JoinSide build_side) {
  KeptRows kept;
  kept.pairs = how != JoinHow::semi && how != JoinHow::anti;
  const bool left_kept = keeps_unmatched_left(how) || how == JoinHow::semi;
  const bool right_kept = keeps_unmatched_right(how);
  const std::uint8_t left_wanted = how == JoinHow::semi ? 1 : 0;
  const bool build_is_left = build_side == JoinSide::left;
  kept.probe = build_is_left ? right_kept : left_kept;
  kept.build = build_is_left ? left_kept : right_kept;
  kept.probe_wanted = build_is_left ? 0 : left_wanted;
  kept.build_wanted = build_is_left ? left_wanted : 0;
  return kept;
}

// Pairs of one probe batch: where the probe row lies in this rank's share,
// and the build row's number in the build side's copy.
struct BatchPairs {
  std::vector<RowLocation> probe;
  std::vector<std::uint32_t> build;
};

// Where the build rows of pairs lie in the build side's copy.
std::vector<RowLocation> locate(RowLocator& locator, std::span<const std::uint32_t> rows) {
  std::vector<RowLocation> at(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) at[i] = locator(rows[i]);
  return at;
}

// The columns the loop takes rows of, made once: each result column where
// it comes from, and the key columns that hashed keys are verified on.
struct TakenColumns {
  struct Source {
    bool from_build;
    int index;  // in its side's schema
    ShareColumn column;
  };
  std::vector<Source> result;
  std::vector<ShareColumn> probe_keys;
  std::vector<ShareColumn> build_keys;

  TakenColumns(const Sides& sides, const TableJoinSpec& spec) {
    for (const ResultColumn& c : spec.columns) {
      const bool from_build = c.side == sides.build_side;
      const DistributedTable& table = from_build ? sides.build.table : sides.probe;
      const int index = table.schema->GetFieldIndex(c.source);
      result.push_back({from_build, index, ShareColumn(table, index)});
    }
    for (const int k : sides.probe_keys) probe_keys.emplace_back(sides.probe, k);
    for (const int k : sides.build_keys) build_keys.emplace_back(sides.build.table, k);
  }
};

// `first_only`: a probe row's first match will do (semi and anti joins that
// keep no build row, on keys compared exactly): a key's duplicates on the
// build side do not multiply the pairs. Compiled for POPCNT as well: an
// ascending index counts bits.
HPCDB_CLONES_POPCNT void probe_batch(const KeyIndex& index, std::uint32_t batch, const RowKeys& keys, bool first_only,
                                     BatchPairs& pairs) {
  constexpr std::size_t kAhead = 16;  // rows whose slots are fetched ahead of their probe
  pairs.probe.clear();
  pairs.build.clear();
  const std::size_t n = keys.keys.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) index.prefetch(keys.keys[i + kAhead]);
    if (!keys.valid[i]) continue;
    const auto row_in_batch = static_cast<std::uint32_t>(i);
    // Inlined into each of the index's layouts (a call per match otherwise).
    index.for_each_match(keys.keys[i], [&](std::uint32_t row) __attribute__((always_inline)) {
      if (first_only && !pairs.probe.empty() && pairs.probe.back().row == row_in_batch) return;
      pairs.probe.push_back({batch, row_in_batch});
      pairs.build.push_back(row);
    });
  }
}

// Drops the pairs whose key values differ (hash collisions); returns how many.
std::uint64_t drop_unequal_keys(const TakenColumns& columns, RowLocator& locator, BatchPairs& pairs,
                                TakeScratch& scratch) {
  std::vector<std::uint8_t> keep(pairs.probe.size(), 1);
  const std::vector<RowLocation> build = locate(locator, pairs.build);
  for (std::size_t k = 0; k < columns.probe_keys.size(); ++k) {
    const auto a = take_located(columns.probe_keys[k], pairs.probe, scratch);
    const auto b = take_located(columns.build_keys[k], build, scratch);
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

// Whether the rows are consecutive rows of one batch, each once, in order.
bool consecutive(std::span<const RowLocation> rows) {
  for (std::size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].batch != rows[0].batch || rows[i].row != rows[0].row + i) return false;
  }
  return true;
}

// The result rows of pairs [begin, end). A probe-side column whose rows are
// a run of one batch's rows, as in a join on a foreign key where every row
// matches once, is that batch's column, not a copy.
std::shared_ptr<arrow::RecordBatch> pair_rows(const DistributedTable& probe, const TakenColumns& columns,
                                              RowLocator& locator, const BatchPairs& pairs, std::size_t begin,
                                              std::size_t end, const std::shared_ptr<arrow::Schema>& schema,
                                              TakeScratch& scratch) {
  const std::size_t count = end - begin;
  const std::span<const RowLocation> probe_at(pairs.probe.data() + begin, count);
  const bool passes_through = count > 0 && consecutive(probe_at);
  const std::vector<RowLocation> build =
      locate(locator, std::span<const std::uint32_t>(pairs.build.data() + begin, count));
  std::vector<std::shared_ptr<arrow::Array>> result;
  for (const TakenColumns::Source& c : columns.result) {
    if (!c.from_build && passes_through) {
      result.push_back(probe.batches[probe_at[0].batch]->column(c.index)->Slice(probe_at[0].row,
                                                                                static_cast<std::int64_t>(count)));
      continue;
    }
    result.push_back(take_located(c.column, c.from_build ? std::span<const RowLocation>(build) : probe_at, scratch));
  }
  return arrow::RecordBatch::Make(schema, static_cast<std::int64_t>(count), result);
}

// Which build rows some rank matched: this rank's flags OR-ed over all ranks.
void agree_build_matches(const Cluster& cluster, std::vector<std::uint8_t>& flags) {
  constexpr std::size_t kChunk = std::size_t{1} << 30;
  for (std::size_t at = 0; at < flags.size(); at += kChunk) {
    const auto count = static_cast<int>(std::min(kChunk, flags.size() - at));
    MPI_Allreduce(MPI_IN_PLACE, flags.data() + at, count, MPI_UINT8_T, MPI_BOR, cluster.world());
  }
}

// Seconds parts of the join and materialize phases took on this rank.
struct LoopSeconds {
  double join = 0;
  double verify = 0;
  double sink = 0;
};

template <class Step>
void timed(double& seconds, Step&& step) {
  const double start = MPI_Wtime();
  step();
  seconds += MPI_Wtime() - start;
}

// The join, verify and materialize phases: the build side's keys indexed,
// then a probe batch at a time, its pairs found, verified and handed over as
// result rows with its kept unmatched (or matched) rows; at the end, the
// build side's kept rows of this rank's own share. Collective: every rank
// takes as many steps, past its last batch with none.
class ProbeLoop {
 public:
  struct Counts {
    std::uint64_t build_keyless = 0;  // rows of this rank's own build share
    std::uint64_t probe_keyless = 0;
    std::uint64_t collisions = 0;
    std::uint64_t matched = 0;
  };

  ProbeLoop(const Cluster& cluster, const Sides& sides, const TableJoinSpec& spec, const TableJoinSettings& settings,
            KeyEncoding encoding, std::shared_ptr<arrow::Schema> schema, ResultSink& sink)
      : cluster_(cluster), sides_(sides), spec_(spec), settings_(settings), encoding_(encoding),
        schema_(std::move(schema)), sink_(sink), kept_(kept_rows(spec.how, sides.build_side)), columns_(sides, spec),
        locator_(sides.build.table) {
    timed(seconds_.join, [&] {
      run_collectively(cluster.world(), [&] {
        index_.emplace(sides.build.table, sides.build_keys, encoding, settings.hash_bits);
      });
    });
    const auto me = static_cast<std::size_t>(cluster.rank());
    counts_.build_keyless = index_->keyless(sides.build.first_row[me], sides.build.first_row[me + 1]);
    first_only_ = !kept_.pairs && !kept_.build && encoding == KeyEncoding::direct;
    if (kept_.build) build_matched_.assign(static_cast<std::size_t>(sides.build.table.rows()), 0);
  }

  // One probe batch (none past this rank's last). A failure is held, and
  // the rank's later steps skip their work, until the next agreement.
  void step(std::size_t step) {
    failure_.hold([&] { probe_step(step); });
    if ((step + 1) % kStepsPerAgreement == 0) agree();
  }

  // The build side's kept rows of `build_share`, this rank's own; every
  // failure agreed.
  void finish(const DistributedTable& build_share) {
    agree();  // before the collective below
    if (kept_.build) {
      agree_build_matches(cluster_, build_matched_);
      failure_.hold([&] { hand_over_build_rows(build_share); });
    }
    agree();
  }

  const Counts& counts() const { return counts_; }
  const LoopSeconds& seconds() const { return seconds_; }

 private:
  // Probe batches between agreements on failures, the loop's and the
  // sink's (64Ki rows a batch from Parquet: a failure is known everywhere
  // within about a million rows' work).
  static constexpr std::size_t kStepsPerAgreement = 16;

  void agree() {
    failure_.agree(cluster_.world());
    agree_on_sink(sink_, seconds_.sink);
  }

  void probe_step(std::size_t step) {
    const DistributedTable& probe = sides_.probe;
    const DistributedTable batch{probe.schema, step < probe.batches.size()
                                                   ? std::vector{probe.batches[step]}
                                                   : std::vector<std::shared_ptr<arrow::RecordBatch>>{}};
    timed(seconds_.join, [&] {
      const RowKeys keys = row_keys(batch, sides_.probe_keys, encoding_, settings_.hash_bits);
      counts_.probe_keyless += keys.nulls;
      probe_batch(*index_, static_cast<std::uint32_t>(step), keys, first_only_, pairs_);
    });
    if (encoding_ == KeyEncoding::hashed) {
      timed(seconds_.verify, [&] { counts_.collisions += drop_unequal_keys(columns_, locator_, pairs_, scratch_); });
    }
    counts_.matched += pairs_.probe.size();
    if (kept_.build) {
      for (const std::uint32_t row : pairs_.build) build_matched_[row] = 1;
    }
    if (kept_.pairs) hand_over_pairs();
    if (kept_.probe) hand_over_probe_rows(batch);
  }

  void hand_over_build_rows(const DistributedTable& build_share) {
    const auto me = static_cast<std::size_t>(cluster_.rank());
    const auto first = static_cast<std::ptrdiff_t>(sides_.build.first_row[me]);
    const auto last = static_cast<std::ptrdiff_t>(sides_.build.first_row[me + 1]);
    const std::vector<std::uint8_t> own(build_matched_.begin() + first, build_matched_.begin() + last);
    hand_over(sink_, own_rows(build_share, sides_.build_side, rows_flagged(own, kept_.build_wanted), spec_, schema_),
              seconds_.sink);
  }

  // The batch's pairs as result rows, in slices of settings.slice_rows.
  void hand_over_pairs() {
    const std::size_t n = pairs_.probe.size();
    const std::uint64_t slice = settings_.slice_rows;
    const std::uint64_t pieces = (n + slice - 1) / slice;
    for (std::uint64_t p = 0; p < pieces; ++p) {
      const std::size_t begin = std::min<std::size_t>(n, p * slice);
      const std::size_t end = std::min<std::size_t>(n, begin + slice);
      hand_over(sink_, pair_rows(sides_.probe, columns_, locator_, pairs_, begin, end, schema_, scratch_),
                seconds_.sink);
    }
  }

  // The batch's rows that matched (semi joins) or did not (outer and anti joins).
  void hand_over_probe_rows(const DistributedTable& batch) {
    std::vector<std::uint8_t> flags(static_cast<std::size_t>(batch.rows()), 0);
    for (const RowLocation& at : pairs_.probe) flags[at.row] = 1;
    const JoinSide probe_side = sides_.build_side == JoinSide::left ? JoinSide::right : JoinSide::left;
    hand_over(sink_, own_rows(batch, probe_side, rows_flagged(flags, kept_.probe_wanted), spec_, schema_),
              seconds_.sink);
  }

  const Cluster& cluster_;
  const Sides& sides_;
  const TableJoinSpec& spec_;
  const TableJoinSettings& settings_;
  KeyEncoding encoding_;
  std::shared_ptr<arrow::Schema> schema_;
  ResultSink& sink_;
  KeptRows kept_;
  TakenColumns columns_;
  RowLocator locator_;
  std::optional<KeyIndex> index_;
  bool first_only_ = false;
  std::vector<std::uint8_t> build_matched_;  // per build row: some rank matched it (kept_.build)
  TakeScratch scratch_;
  BatchPairs pairs_;
  Counts counts_;
  LoopSeconds seconds_;
  HeldFailure failure_;  // of this rank's steps, until agreed
};

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
  AllgatheredTable build;
  run_collectively(cluster.world(), [&] { build = allgather_table(cluster, build_share, sent); });
  Sides sides{broadcast_left ? JoinSide::left : JoinSide::right, std::move(build), probe,
              indices_of(*build_share.schema, broadcast_left ? spec.left_keys : spec.right_keys),
              indices_of(*probe.schema, broadcast_left ? spec.right_keys : spec.left_keys)};
  out.broadcast_bytes = allreduce(sent, MPI_SUM, cluster.world());
  timer.phase(out.phases, "broadcast");

  // join, verify and materialize, a probe batch at a time
  ProbeLoop loop(cluster, sides, spec, settings, out.encoding, out.schema, sink);
  const auto steps = allreduce<std::uint64_t>(probe.batches.size(), MPI_MAX, cluster.world());
  for (std::size_t step = 0; step < steps; ++step) loop.step(step);
  loop.finish(build_share);
  const ProbeLoop::Counts& counts = loop.counts();
  (broadcast_left ? out.left_keyless : out.right_keyless) = allreduce(counts.build_keyless, MPI_SUM, cluster.world());
  (broadcast_left ? out.right_keyless : out.left_keyless) = allreduce(counts.probe_keyless, MPI_SUM, cluster.world());
  out.collisions = allreduce(counts.collisions, MPI_SUM, cluster.world());
  out.pairs = allreduce(counts.matched, MPI_SUM, cluster.world());
  const LoopSeconds& seconds = loop.seconds();
  std::vector<PhaseTimer::Part> parts{{"join", seconds.join}, {"verify", seconds.verify}, {"materialize", 0},
                                      {sink.phase(), seconds.sink}};
  if (out.encoding != KeyEncoding::hashed) parts[1].name.clear();
  if (parts[3].name.empty()) parts[3].seconds = 0;  // a sink without a phase of its own: counted in materialize
  timer.split_phase(out.phases, parts, 2);
  return out;
}

}  // namespace hpcdb
