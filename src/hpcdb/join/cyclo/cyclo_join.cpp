#include "hpcdb/join/cyclo/cyclo_join.hpp"

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/phase_clock.hpp"
#include "hpcdb/join/sorted_join_run.hpp"
#include "hpcdb/join/sorted_values.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {
namespace {

// S tuples joined between two looks at the ring.
constexpr std::size_t kJoinBlock = 32768;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

CycloPlan make_plan(const Cluster& cluster, const CycloJoinConfig& config, const Relation& inner, const Relation& outer) {
  CycloPlan plan;
  plan.format = plan_sorted_format(cluster, config.compression, inner, outer);
  plan.largest_outer_fragment = allreduce(static_cast<std::uint64_t>(outer.tuples.size()), MPI_MAX, cluster.world());
  return plan;
}

std::size_t whole_lines(std::uint64_t bytes) { return static_cast<std::size_t>(ceil_div(std::max<std::uint64_t>(bytes, 1), 64) * 64); }

}  // namespace

std::uint64_t cyclo_join_memory_per_rank(std::uint64_t inner_tuples, std::uint64_t outer_tuples, int ranks,
                                         const CycloJoinConfig& config) {
  const auto n = static_cast<std::uint64_t>(ranks);
  const std::uint64_t inner = ceil_div(inner_tuples, n), outer = ceil_div(outer_tuples, n);
  const std::uint64_t tuple = 16;  // the estimate assumes uncompressed tuples
  std::uint64_t bytes = 2 * outer * tuple + inner * tuple + std::max(inner, outer) * tuple;
  if (!config.presort) bytes += outer * tuple;
  return bytes;
}

CycloJoin::CycloJoin(const Cluster& cluster, const CycloJoinConfig& config, const Relation& inner, const Relation& outer)
    : cluster_(cluster), config_(config), plan_(make_plan(cluster, config, inner, outer)) {
  if (config.chunk_bytes < 64 || config.chunk_bytes > (1u << 30)) {
    throw UsageError("--chunk-size must be between 64 B and 1 GiB");
  }
  const std::uint64_t part_bytes = plan_.largest_outer_fragment * plan_.format.tuple_bytes;
  ring_ = std::make_unique<RingChannel>(cluster, whole_lines(part_bytes), config.chunk_bytes);
  sorted_inner_ = MemoryRegion(whole_lines(inner.tuples.size() * plan_.format.tuple_bytes), Prefault::yes);
  const std::uint64_t largest = std::max<std::uint64_t>(inner.tuples.size(), plan_.largest_outer_fragment);
  scratch_ = MemoryRegion(whole_lines(largest * plan_.format.tuple_bytes), Prefault::yes);
  if (!config.presort) visiting_ = MemoryRegion(whole_lines(part_bytes), Prefault::yes);
}

JoinResult CycloJoin::run(const Relation& inner, const Relation& outer) {
  JoinResult result = timed_sorted_run(cluster_, plan_.format, inner, outer, [&](const auto& format, JoinResult& r, PhaseClock& clock) {
    run_with(format, inner, outer, r, clock);
  });
  result.ring.presort = config_.presort;
  result.ring.compressed = plan_.format.compressed;
  result.ring.tuple_bytes = plan_.format.tuple_bytes;
  result.ring.key_bits = plan_.format.bounds.key_offset_bits();
  result.ring.rid_bits = plan_.format.bounds.rid_bits();
  result.ring.chunk_bytes = config_.chunk_bytes;
  return result;
}

template <class Format>
void CycloJoin::run_with(const Format& format, const Relation& inner, const Relation& outer, JoinResult& result,
                         PhaseClock& clock) {
  using Stored = typename Format::Stored;
  auto* r = static_cast<Stored*>(sorted_inner_.data());
  auto* scratch = static_cast<Stored*>(scratch_.data());
  const std::size_t nr = inner.tuples.size();

  clock.start("sort");
  encode_sorted(format, std::span<const Tuple>(inner.tuples.data(), nr), r, scratch);
  std::size_t part_tuples = outer.tuples.size();
  auto* own = reinterpret_cast<Stored*>(ring_->buffer(0));
  encode_into(format, std::span<const Tuple>(outer.tuples.data(), part_tuples), own);
  if (config_.presort) sort_by_key(own, part_tuples, scratch);

  clock.start("distribute");
  MatchCollector matches;
  matches.keep_pairs = config_.keep_pairs;
  const unsigned cycles = ring_->cycles();
  for (unsigned cycle = 0; cycle < cycles; ++cycle) {
    if (cycle + 1 == cycles) clock.start("end");
    if (cycle > 0) part_tuples = ring_->wait_for_part(cycle) / sizeof(Stored);
    ring_->begin_cycle(cycle, part_tuples * sizeof(Stored));
    const auto* part = reinterpret_cast<const Stored*>(ring_->buffer(cycle));
    if (!config_.presort) {
      // The part travels on unsorted while this rank sorts a copy.
      auto* copy = static_cast<Stored*>(visiting_.data());
      std::copy(part, part + part_tuples, copy);
      ring_->progress();
      sort_by_key(copy, part_tuples, scratch);
      part = copy;
    }
    join_sorted_in_blocks(format, r, nr, part, part_tuples, kJoinBlock, matches, [&] { ring_->progress(); });
    ring_->end_cycle();
  }
  clock.stop();
  result.matches = matches.count;
  result.checksum = matches.checksum;
  result.pairs = std::move(matches.pairs);
  const RingTraffic traffic = ring_->take_traffic();
  result.bytes_sent = traffic.bytes;
  result.bytes_put = traffic.bytes;
  result.puts = traffic.chunks;
}

}  // namespace hpcdb
