#include "hpcdb/join/radix/radix_join.hpp"

#include "hpcdb/core/error.hpp"
#include "hpcdb/join/chunk_tasks.hpp"
#include "hpcdb/join/join_run.hpp"
#include "hpcdb/join/radix/build_probe_phase.hpp"
#include "hpcdb/join/radix/network_pass.hpp"
#include "hpcdb/join/radix/partition_histograms.hpp"
#include "hpcdb/join/radix/partition_placement.hpp"
#include "hpcdb/join/radix/radix_phases.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {

RadixJoin::RadixJoin(const Cluster& cluster, const RadixJoinConfig& config, const Relation& inner, const Relation& outer)
    : RadixJoin(cluster, plan_radix_join(agreed_join_facts(cluster, inner, outer), config)) {}

RadixJoin::RadixJoin(const Cluster& cluster, const RadixPlan& plan) : cluster_(cluster), plan_(plan) {
  windows_ = std::make_unique<ReceiveWindows>(cluster, plan.window_capacity, plan.writes);
  if (plan.send_buffer_bytes > 0) send_buffers_ = MemoryRegion(plan.send_buffer_bytes, Prefault::yes);
  if (plan.config.scheduled) {
    staged_ = std::make_unique<StagedExchange>(cluster, plan.staging_bytes);
  }
  node_tasks_ = std::make_unique<NodeTaskCounter>(cluster);
  chunks_ = std::make_unique<InputChunks>(cluster, plan.input_chunks, plan.partitions);
  fail_in_setup(cluster, plan.config.failure);
}

JoinResult RadixJoin::run(const Relation& inner, const Relation& outer) {
  return plan_.with_format([&](auto format) { return run_in(format, inner, outer); });
}

template <class Format>
JoinResult RadixJoin::run_in(Format format, const Relation& inner, const Relation& outer) {
  using Stored = typename Format::Stored;
  const RadixPlan& plan = plan_;
  JoinRun run(cluster_, inner, outer, plan.config.failure);
  JoinResult& result = run.result();

  run.phase(radix_phase::histogram);
  ChunkTasks tasks(cluster_, *node_tasks_, plan.input_chunks, plan.share_node_work, inner, outer);
  const PartitionHistograms histograms = count_partitions(cluster_, run, plan, tasks, *chunks_);

  run.phase(radix_phase::window_allocation);
  const PartitionPlacement placement = place_partitions(cluster_, plan, histograms, *chunks_, *windows_, staged_.get());

  run.phase(radix_phase::network_partition);
  const NetworkPassTotals pass = partition_over_network(cluster_, run, plan, format, tasks, *chunks_, placement,
                                                        *windows_, send_buffers_, staged_.get());
  result.puts = pass.puts;
  result.bytes_put = pass.bytes_put;
  result.sharing.peer_chunks = pass.peer_chunks;
  for (std::size_t p = 0; p < plan.partitions; ++p) {
    if (placement.owner[p] != cluster_.rank()) {
      result.bytes_sent += (histograms.rank_counts[p] + histograms.rank_counts[plan.partitions + p]) * sizeof(Stored);
    }
  }

  if (staged_) {
    run.phase(radix_phase::network_exchange);
    const std::size_t window = placement.layout.window_bytes[static_cast<std::size_t>(cluster_.rank())];
    const ExchangeStats shipped = staged_->ship(cluster_, {windows_->own(), window}, placement.layout, placement.owner,
                                                placement.all_counts, plan.config.exchange);
    if (plan.config.exchange.transport == ExchangeTransport::put) {
      result.puts += shipped.transfers;
      result.bytes_put += shipped.bytes;
    }
    result.radix.exchange_rounds = shipped.rounds;
    result.radix.exchange_waiting = shipped.waiting_seconds;
  }

  run.phase(radix_phase::network_wait);
  windows_->close();

  run.add(radix_phase::local_partition, 0);
  run.phase(radix_phase::build_probe);
  PartitionJoinTotals joined = join_partitions(cluster_, run, plan, format, histograms, placement, *windows_, *node_tasks_);
  run.take_matches(std::move(joined.matches));
  // The local pass runs inside the per-partition loop; report it as its own phase.
  run.add(radix_phase::build_probe, -joined.local_partition_seconds);
  run.add(radix_phase::local_partition, joined.local_partition_seconds);
  result.radix.build_splits = joined.build_splits;
  result.radix.probe_splits = joined.probe_splits;
  result.sharing.peer_partitions = joined.peer_partitions;

  JoinResult summary = run.finish();
  const MPI_Comm world = cluster_.world();
  sum_sharing_over_ranks(cluster_, summary.sharing);
  summary.radix.build_splits = allreduce(summary.radix.build_splits, MPI_SUM, world);
  summary.radix.probe_splits = allreduce(summary.radix.probe_splits, MPI_SUM, world);
  summary.radix.exchange_waiting = allreduce(summary.radix.exchange_waiting, MPI_MAX, world);
  summary.sharing.input_chunks = plan.input_chunks;
  summary.sharing.node_wide = tasks.node_wide();
  summary.sharing.partitions_shared = plan.share_node_work;
  summary.radix.network_bits = plan.bits.network;
  summary.radix.local_bits = plan.bits.local;
  summary.radix.local_passes = plan.local_passes;
  summary.radix.precounted_local_bits = plan.precounted_local_bits;
  summary.radix.compressed = plan.compressed;
  summary.radix.tuple_bytes = plan.tuple_bytes;
  summary.radix.key_bits = plan.key_bits;
  summary.radix.rid_bits = plan.rid_bits;
  return summary;
}

}  // namespace hpcdb
