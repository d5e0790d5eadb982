#pragma once
// The radix join's network phase in two steps, so that it can follow a
// schedule (net/all_to_all_schedule.hpp): the network pass first
// partitions this rank's own chunks into local staging memory, where each
// partition's tuples lie together; then every partition travels to its
// owner's window in one piece, by one-sided puts or two-sided messages, in
// the schedule's order of targets and, per target, lowest partition first
// (inner and outer alike), as the 2012 thesis's radix join sent them.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/join/radix/staged_exchange_config.hpp"
#include "hpcdb/join/radix/window_layout.hpp"
#include "hpcdb/net/all_to_all_exchange.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/duplicated_comm.hpp"

namespace hpcdb {

class StagedExchange {
 public:
  // Collective. Room for this rank's own tuples of both relations (the
  // plan's staging bytes), and the exchange's own communicator.
  StagedExchange(const Cluster& cluster, std::size_t bytes);

  // Lays out the staging for this rank's counts per partition (inner then
  // outer, `partitions` each) in tuples of `tuple_bytes`.
  void plan(const std::vector<std::uint64_t>& rank_counts, std::size_t partitions, unsigned tuple_bytes);
  // Where tuple `index` of this rank's share of partition p of `relation`
  // (0 inner, 1 outer) goes in staging.
  std::byte* slot(int relation, std::size_t p, std::uint64_t index) const {
    return static_cast<std::byte*>(memory_.data()) + (start_[static_cast<std::size_t>(relation) * partitions_ + p] + index) * tuple_bytes_;
  }

  // Collective: ships every staged partition into its owner's window
  // `receive` (this rank's), placed as `layout` says; `all_counts` holds
  // every rank's rank_counts, rank after rank.
  ExchangeStats ship(const Cluster& cluster, std::span<std::byte> receive, const WindowLayout& layout,
                     const std::vector<int>& owner, const std::vector<std::uint64_t>& all_counts,
                     const ScheduledExchangeConfig& config) const;

 private:
  MemoryRegion memory_;
  DuplicatedComm comm_;  // made at set-up: ship() starts without a collective
  std::size_t partitions_ = 0;
  unsigned tuple_bytes_ = 16;
  std::vector<std::uint64_t> start_;  // inner then outer, per partition, in tuples
};

}  // namespace hpcdb
