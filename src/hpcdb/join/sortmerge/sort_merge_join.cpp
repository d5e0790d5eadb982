#include "hpcdb/join/sortmerge/sort_merge_join.hpp"

#include "hpcdb/core/error.hpp"
#include "hpcdb/join/chunk_tasks.hpp"
#include "hpcdb/join/join_run.hpp"
#include "hpcdb/join/sortmerge/match_phase.hpp"
#include "hpcdb/join/sortmerge/merge_phase.hpp"
#include "hpcdb/join/sortmerge/run_formation.hpp"
#include "hpcdb/join/sortmerge/run_placement.hpp"
#include "hpcdb/join/sortmerge/run_shipping.hpp"
#include "hpcdb/join/sortmerge/sort_merge_phases.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {

SortMergeJoin::SortMergeJoin(const Cluster& cluster, const SortMergeJoinConfig& config, const Relation& inner,
                             const Relation& outer)
    : SortMergeJoin(cluster, plan_sort_merge_join(agreed_join_facts(cluster, inner, outer), config)) {}

SortMergeJoin::SortMergeJoin(const Cluster& cluster, const SortMergePlan& plan) : cluster_(cluster), plan_(plan) {
  windows_ = std::make_unique<ReceiveWindows>(cluster, plan.window_capacity, plan.writes);
  node_tasks_ = std::make_unique<NodeTaskCounter>(cluster);
  staging_ = MemoryRegion(plan.staging_and_merge_bytes(), Prefault::no);
  prefault(staging_.data(), plan.staging_expected_bytes);
  fail_in_setup(cluster, plan.config.failure);
}

JoinResult SortMergeJoin::run(const Relation& inner, const Relation& outer) {
  return plan_.format.with_format([&](auto format) { return run_in(format, inner, outer); });
}

template <class Format>
JoinResult SortMergeJoin::run_in(Format format, const Relation& inner, const Relation& outer) {
  using Stored = typename Format::Stored;
  const SortMergePlan& plan = plan_;
  JoinRun run(cluster_, inner, outer, plan.config.failure);
  JoinResult& result = run.result();

  run.phase(sort_merge_phase::partition);
  ChunkTasks tasks(cluster_, *node_tasks_, plan.input_chunks, plan.share_node_work, inner, outer);
  const FormedRuns formed = form_runs(cluster_, run, plan, format, inner, outer, tasks, staging_);
  result.sharing.peer_chunks = formed.peer_chunks;

  run.phase(sort_merge_phase::window_allocation);
  const RunPlacement placement = place_runs(cluster_, plan, formed, *windows_);
  // The merge's second buffer mirrors this rank's window: the staging, unless
  // skew made the window larger than the staging.
  const std::uint64_t merge_bytes = placement.window_bytes;
  if (merge_bytes > staging_.bytes() && merge_bytes > merge_buffer_.bytes()) {
    merge_buffer_ = MemoryRegion(static_cast<std::size_t>(merge_bytes), Prefault::yes);
  }
  const MemoryRegion& merge_area = merge_bytes <= staging_.bytes() ? staging_ : merge_buffer_;

  run.phase(sort_merge_phase::sort);
  const ShippedRuns shipped = sort_and_ship_runs(cluster_, run, plan, format, formed, placement, staging_, *windows_);
  for (std::size_t q = 0; q < placement.ranks; ++q) {
    if (static_cast<int>(q) == cluster_.rank()) continue;
    result.bytes_sent += (placement.per_destination[q * 2] + placement.per_destination[q * 2 + 1]) * sizeof(Stored);
  }
  if (const OneSidedWriter* writer = windows_->writer()) {
    result.puts = writer->puts();
    result.bytes_put = writer->bytes();
  }

  run.phase(sort_merge_phase::sort_wait);
  windows_->close();

  run.phase(sort_merge_phase::merge);
  const MergedRelations<Stored> merged = merge_received_runs(plan, format, placement, windows_->own(), merge_area,
                                                             static_cast<std::size_t>(cluster_.rank()));

  run.phase(sort_merge_phase::match);
  run.take_matches(match_sorted(run, format, merged.inner, placement.window_tuples[0], merged.outer,
                                placement.window_tuples[1], plan.config.threads, plan.config.keep_pairs));

  JoinResult summary = run.finish();
  const MPI_Comm world = cluster_.world();
  sum_sharing_over_ranks(cluster_, summary.sharing);
  std::uint64_t runs[2] = {shipped.runs, shipped.narrow_key_runs};
  MPI_Allreduce(MPI_IN_PLACE, runs, 2, MPI_UINT64_T, MPI_SUM, world);
  EffectiveSortMergeSettings& s = summary.sort_merge;
  s.runs_sent = runs[0];
  s.narrow_key_runs = runs[1];
  s.merge_levels = allreduce(merged.levels, MPI_MAX, world);
  s.compressed = plan.format.compressed;
  s.tuple_bytes = plan.format.tuple_bytes;
  s.simd = plan.format.compressed && default_sort_path() == SortPath::avx2;
  s.subranges = plan.subranges;
  s.run_length = plan.run_length;
  s.key_bits = formed.bounds.key_offset_bits();
  s.rid_bits = formed.bounds.rid_bits();
  summary.sharing.input_chunks = plan.input_chunks;
  summary.sharing.node_wide = tasks.node_wide();
  return summary;
}

}  // namespace hpcdb
