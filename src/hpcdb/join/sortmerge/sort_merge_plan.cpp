#include "hpcdb/join/sortmerge/sort_merge_plan.hpp"

#include <algorithm>

#include "hpcdb/join/chunk_tasks.hpp"

namespace hpcdb {
namespace {

// Runs are staged in whole cache lines (partitioning writes them through
// software write-combining): the run length rounded up to 8 tuples.
std::size_t staged_run_length(std::size_t run_length) { return (run_length + 7) / 8 * 8; }

bool shares_node_work(const SortMergeJoinConfig& config, int ranks_per_node) {
  return config.share_node_work && ranks_per_node > 1;
}

std::size_t staging_bytes(std::uint64_t tuples, int ranks, unsigned threads, unsigned subranges, std::size_t block,
                          unsigned tuple_bytes) {
  // Every (thread, relation, sub-range) may leave one partly filled block
  // and one unused block (installed when the previous one filled up).
  const std::uint64_t ranges = static_cast<std::uint64_t>(ranks) * subranges;
  return (tuples + 4ull * threads * ranges * block) * tuple_bytes;
}

// Blocks uniform data fills: each (thread, relation, range) chain holds its
// share of the own tuples in whole blocks, and the tuples taken on for
// co-located ranks fill blocks of their own.
std::size_t expected_staging_bytes(std::uint64_t own, std::uint64_t help, int ranks, unsigned threads, unsigned subranges,
                                   std::size_t block, unsigned tuple_bytes) {
  const std::uint64_t chains = 2ull * threads * static_cast<std::uint64_t>(ranks) * subranges;
  const std::uint64_t per_chain = own / chains + 1;
  const std::uint64_t blocks = chains * ((per_chain + block - 1) / block) + (help + block - 1) / block + 2ull * threads;
  return blocks * block * tuple_bytes;
}

}  // namespace

unsigned sort_merge_subranges(std::uint64_t inner_tuples, std::uint64_t outer_tuples, int ranks,
                              const SortMergeJoinConfig& config, int ranks_per_node) {
  if (config.subranges != 0) return config.subranges;
  const double senders = static_cast<double>(ranks) * config.threads;
  const double share = static_cast<double>(std::min(inner_tuples, outer_tuples)) / senders / ranks;  // per sender and rank
  const double runs_per_share = shares_node_work(config, ranks_per_node) ? 2.0 : 1.0;
  const double wanted = share * runs_per_share / static_cast<double>(config.run_length);
  unsigned subranges = 1;
  while (subranges < 1024 && subranges * 1.41 < wanted) subranges *= 2;  // the nearest power of two
  return subranges;
}

std::size_t sort_merge_staging_block(std::uint64_t inner_tuples, std::uint64_t outer_tuples, int ranks,
                                     const SortMergeJoinConfig& config, int ranks_per_node) {
  const unsigned subranges = sort_merge_subranges(inner_tuples, outer_tuples, ranks, config, ranks_per_node);
  const double ranges = static_cast<double>(ranks) * subranges;
  const double share = static_cast<double>(std::max(inner_tuples, outer_tuples)) / ranks / config.threads / ranges;
  const auto wanted = static_cast<std::size_t>(std::min(2 * share, 1e12));
  constexpr std::size_t kSmallest = 64;  // 8 cache lines
  return std::min(staged_run_length(config.run_length), std::max(kSmallest, staged_run_length(wanted)));
}

SortMergePlan plan_sort_merge_join(const JoinFacts& facts, const SortMergeJoinConfig& config) {
  validate(config);
  SortMergePlan plan;
  plan.config = config;
  plan.share_node_work = shares_node_work(config, facts.ranks_per_node);
  plan.format = plan_sorted_format(facts, config.compression);
  plan.subranges = sort_merge_subranges(facts.inner_tuples, facts.outer_tuples, facts.ranks, config, facts.ranks_per_node);
  plan.run_length = sort_merge_staging_block(facts.inner_tuples, facts.outer_tuples, facts.ranks, config, facts.ranks_per_node);
  plan.input_chunks = input_chunks(config.input_chunks, std::max(facts.inner_tuples, facts.outer_tuples), facts.ranks,
                                   config.threads);
  plan.window_capacity = ReceiveWindows::capacity_for(facts.inner_tuples, facts.outer_tuples, facts.ranks, plan.format.tuple_bytes);
  plan.writes = ReceiveWindows::writes_for(config.force_put);

  // Staging holds this rank's own tuples and, with node sharing, those of
  // co-located ranks' chunks its workers take on: while fewer than half as
  // many again as its own, and each worker may hold one more chunk when
  // they stop. Sized for the largest fragments, the same on every rank.
  const std::uint64_t local = facts.largest_inner_fragment + facts.largest_outer_fragment;
  std::uint64_t help_room = 0;
  if (plan.share_node_work) {
    plan.help_tuples = local / 2;
    const std::uint64_t largest_fragment = std::max(facts.largest_inner_fragment, facts.largest_outer_fragment);
    help_room = plan.help_tuples + config.threads * (largest_fragment / plan.input_chunks + 1);
  }
  plan.staging_bytes =
      staging_bytes(local + help_room, facts.ranks, config.threads, plan.subranges, plan.run_length, plan.format.tuple_bytes);
  plan.staging_expected_bytes = std::min(
      plan.staging_and_merge_bytes(),
      std::max(expected_staging_bytes(local, plan.help_tuples, facts.ranks, config.threads, plan.subranges, plan.run_length,
                                      plan.format.tuple_bytes),
               static_cast<std::size_t>(local) * plan.format.tuple_bytes));
  return plan;
}

MemoryEstimate SortMergePlan::memory() const {
  MemoryEstimate m;
  m.add("receive windows", window_capacity, true);
  m.add("run staging, then merge buffer", staging_expected_bytes);
  return m;
}

}  // namespace hpcdb
