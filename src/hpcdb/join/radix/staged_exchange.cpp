#include "hpcdb/join/radix/staged_exchange.hpp"

#include <algorithm>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

StagedExchange::StagedExchange(const Cluster& cluster, std::size_t bytes)
    : memory_(std::max<std::size_t>(bytes, 64), Prefault::yes), comm_(cluster.world()) {}

void StagedExchange::plan(const std::vector<std::uint64_t>& rank_counts, std::size_t partitions, unsigned tuple_bytes) {
  std::uint64_t tuples = 0;
  for (std::uint64_t n : rank_counts) tuples += n;
  if (tuples * tuple_bytes > memory_.bytes()) throw Error("radix join: this rank's tuples exceed its staging memory");
  partitions_ = partitions;
  tuple_bytes_ = tuple_bytes;
  start_.assign(2 * partitions, 0);
  std::uint64_t next = 0;
  for (std::size_t i = 0; i < 2 * partitions; ++i) {
    start_[i] = next;
    next += rank_counts[i];
  }
}

ExchangeStats StagedExchange::ship(const Cluster& cluster, std::span<std::byte> receive, const WindowLayout& layout,
                                   const std::vector<int>& owner, const std::vector<std::uint64_t>& all_counts,
                                   const ScheduledExchangeConfig& config) const {
  const auto ranks = static_cast<std::size_t>(cluster.size());
  const auto me = static_cast<std::size_t>(cluster.rank());
  const std::size_t per_rank = 2 * partitions_;
  auto counts_of = [&](std::size_t rank, int relation, std::size_t p) {
    return all_counts[rank * per_rank + static_cast<std::size_t>(relation) * partitions_ + p];
  };
  // Sender s's first slot in each partition: after the lower ranks' tuples.
  std::vector<std::uint64_t> offsets(all_counts.size(), 0);
  for (std::size_t s = 1; s < ranks; ++s) {
    for (std::size_t i = 0; i < per_rank; ++i) offsets[s * per_rank + i] = offsets[(s - 1) * per_rank + i] + all_counts[(s - 1) * per_rank + i];
  }
  auto offset_of = [&](std::size_t sender, int relation, std::size_t p) {
    return offsets[sender * per_rank + static_cast<std::size_t>(relation) * partitions_ + p];
  };
  auto displacement = [&](std::size_t sender, int relation, std::size_t p) {
    const auto q = static_cast<std::size_t>(owner[p]);
    const std::uint64_t base = relation == 0 ? layout.inner_base[p] : layout.outer_base[p];
    const std::uint64_t region = relation == 0 ? 0 : layout.outer_region_offset[q];
    return region + (base + offset_of(sender, relation, p)) * tuple_bytes_;
  };

  AllToAllPlan plan;
  plan.outgoing.resize(ranks);
  plan.incoming.resize(ranks);
  // Lowest partition first, both relations; empty pieces are left out on both sides.
  for (std::size_t p = 0; p < partitions_; ++p) {
    const auto q = static_cast<std::size_t>(owner[p]);
    for (int relation = 0; relation < 2; ++relation) {
      const std::uint64_t n = counts_of(me, relation, p);
      if (n > 0) plan.outgoing[q].push_back({slot(relation, p, 0), n * tuple_bytes_, displacement(me, relation, p)});
      if (q != me || config.transport != ExchangeTransport::messages) continue;
      for (std::size_t s = 0; s < ranks; ++s) {
        const std::uint64_t m = counts_of(s, relation, p);
        if (s != me && m > 0) plan.incoming[s].push_back({nullptr, m * tuple_bytes_, displacement(s, relation, p)});
      }
    }
  }
  AllToAllExchange exchange(cluster, comm_.get(), receive, config.transport, config.schedule, config.chunk_bytes,
                            static_cast<std::uint64_t>(cluster.rank()) + 1);
  return exchange.run(plan);
}

}  // namespace hpcdb
