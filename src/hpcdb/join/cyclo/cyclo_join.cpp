#include "hpcdb/join/cyclo/cyclo_join.hpp"

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/join/cyclo/cyclo_phases.hpp"
#include "hpcdb/join/join_run.hpp"
#include "hpcdb/join/sorted_join_run.hpp"
#include "hpcdb/join/sorted_values.hpp"

namespace hpcdb {
namespace {

// S tuples joined between two looks at the ring.
constexpr std::size_t kCycloJoinBlock = 32768;

}  // namespace

CycloJoin::CycloJoin(const Cluster& cluster, const CycloJoinConfig& config, const Relation& inner, const Relation& outer)
    : CycloJoin(cluster, plan_cyclo_join(agreed_join_facts(cluster, inner, outer), config)) {}

CycloJoin::CycloJoin(const Cluster& cluster, const CycloPlan& plan) : cluster_(cluster), plan_(plan) {
  const std::uint64_t tuple = plan_.format.tuple_bytes;
  const std::uint64_t part_bytes = plan_.largest_outer_fragment * tuple;
  ring_ = std::make_unique<RingChannel>(cluster, whole_lines(part_bytes), plan_.config.chunk_bytes);
  sorted_inner_ = MemoryRegion(whole_lines(plan_.largest_inner_fragment * tuple), Prefault::yes);
  const std::uint64_t largest = std::max(plan_.largest_inner_fragment, plan_.largest_outer_fragment);
  scratch_ = MemoryRegion(whole_lines(largest * tuple), Prefault::yes);
  if (!plan_.config.presort) visiting_ = MemoryRegion(whole_lines(part_bytes), Prefault::yes);
  fail_in_setup(cluster, plan_.config.failure);
}

JoinResult CycloJoin::run(const Relation& inner, const Relation& outer) {
  JoinResult result = timed_sorted_run(cluster_, plan_.format, plan_.config.failure, inner, outer,
                                       [&](const auto& format, JoinRun& run) { run_with(format, inner, outer, run); });
  result.ring.presort = plan_.config.presort;
  result.ring.compressed = plan_.format.compressed;
  result.ring.tuple_bytes = plan_.format.tuple_bytes;
  result.ring.key_bits = plan_.format.bounds.key_offset_bits();
  result.ring.rid_bits = plan_.format.bounds.rid_bits();
  result.ring.chunk_bytes = plan_.config.chunk_bytes;
  return result;
}

template <class Format>
void CycloJoin::run_with(const Format& format, const Relation& inner, const Relation& outer, JoinRun& run) {
  using Stored = typename Format::Stored;
  auto* r = static_cast<Stored*>(sorted_inner_.data());
  auto* scratch = static_cast<Stored*>(scratch_.data());
  const std::size_t nr = inner.tuples.size();
  const bool presort = plan_.config.presort;

  run.phase(sorted_join_phase::sort);
  std::size_t part_tuples = outer.tuples.size();
  sort_ring_inputs(format, std::span<const Tuple>(inner.tuples.data(), nr),
                   std::span<const Tuple>(outer.tuples.data(), part_tuples), r,
                   reinterpret_cast<Stored*>(ring_->buffer(0)), scratch, presort);

  run.phase(sorted_join_phase::distribute);
  MatchCollector matches;
  matches.keep_pairs = plan_.config.keep_pairs;
  const unsigned cycles = ring_->cycles();
  for (unsigned cycle = 0; cycle < cycles; ++cycle) {
    if (cycle + 1 == cycles) run.phase(sorted_join_phase::end);
    if (cycle > 0) part_tuples = ring_->wait_for_part(cycle) / sizeof(Stored);
    ring_->begin_cycle(cycle, part_tuples * sizeof(Stored));
    join_visiting_part(format, r, nr, reinterpret_cast<const Stored*>(ring_->buffer(cycle)), part_tuples, presort,
                       static_cast<Stored*>(visiting_.data()), scratch, kCycloJoinBlock, matches, [&] { ring_->progress(); });
    ring_->end_cycle();
  }
  run.take_matches(std::move(matches));
  const RingTraffic traffic = ring_->take_traffic();
  run.result().bytes_sent = traffic.bytes;
  run.result().bytes_put = traffic.bytes;
  run.result().puts = traffic.chunks;
}

}  // namespace hpcdb
