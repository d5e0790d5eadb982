#include "hpcdb/join/broadcast/broadcast_join.hpp"

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/join/broadcast/chunk_join.hpp"
#include "hpcdb/join/join_run.hpp"
#include "hpcdb/join/key_directory.hpp"
#include "hpcdb/join/sorted_join_run.hpp"
#include "hpcdb/join/sorted_values.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {
namespace {

constexpr std::size_t kBroadcastJoinBlock = 32768;  // S tuples joined between two looks at the network

}  // namespace

BroadcastJoin::BroadcastJoin(const Cluster& cluster, const BroadcastJoinConfig& config, const Relation& inner,
                             const Relation& outer)
    : BroadcastJoin(cluster, plan_broadcast_join(agreed_join_facts(cluster, inner, outer), config)) {}

BroadcastJoin::BroadcastJoin(const Cluster& cluster, const BroadcastPlan& plan) : cluster_(cluster), plan_(plan) {
  const unsigned tuple = plan_.format.tuple_bytes;
  const std::vector<std::uint64_t>& fragments = plan_.outer_fragments;
  if (plan_.config.transport == BroadcastTransport::udp) {
    udp_stream_ = std::make_unique<UdpBroadcastStream>(cluster, plan_.config.udp, fragments, tuple, plan_.chunk_tuples);
  } else {
    const auto route = plan_.config.transport == BroadcastTransport::ibcast ? BroadcastStream::Route::tree
                                                                            : BroadcastStream::Route::ring;
    stream_ = std::make_unique<BroadcastStream>(cluster, fragments, tuple, plan_.chunk_tuples, plan_.config.depth, route);
  }
  sorted_inner_ = MemoryRegion(std::max<std::size_t>(plan_.largest_inner_fragment * tuple, 64), Prefault::yes);
  const std::size_t scratch = std::max<std::size_t>(plan_.largest_inner_fragment, plan_.chunk_tuples) * tuple;
  scratch_ = MemoryRegion(std::max<std::size_t>(scratch, 64), Prefault::yes);
  visiting_ = MemoryRegion(std::max<std::size_t>(plan_.chunk_tuples * tuple, 64), Prefault::yes);
  fail_in_setup(cluster, plan_.config.failure);
}

JoinResult BroadcastJoin::run(const Relation& inner, const Relation& outer) {
  JoinResult result = timed_sorted_run(cluster_, plan_.format, plan_.config.failure, inner, outer,
                                       [&](const auto& format, JoinRun& run) { run_with(format, inner, outer, run); });
  result.stream.compressed = plan_.format.compressed;
  result.stream.tuple_bytes = plan_.format.tuple_bytes;
  result.stream.key_bits = plan_.format.bounds.key_offset_bits();
  result.stream.rid_bits = plan_.format.bounds.rid_bits();
  result.stream.chunk_bytes = plan_.chunk_tuples * plan_.format.tuple_bytes;
  if (stream_) result.stream.chunks = stream_->chunks();
  if (udp_stream_) {
    const UdpBroadcastStats stats = udp_stream_->take_stats();
    std::uint64_t sums[4] = {stats.datagrams, stats.resent, stats.dropped_on_purpose, stats.duplicates_seen};
    MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_UINT64_T, MPI_SUM, cluster_.world());
    result.stream.udp = true;
    result.stream.datagrams = sums[0];
    result.stream.resent = sums[1];
    result.stream.dropped_on_purpose = sums[2];
    result.stream.duplicates_seen = sums[3];
    result.stream.phases = allreduce(stats.phases, MPI_MAX, cluster_.world());
  }
  return result;
}

template <class Format>
void BroadcastJoin::run_with(const Format& format, const Relation& inner, const Relation& outer, JoinRun& run) {
  using Stored = typename Format::Stored;
  auto* r = static_cast<Stored*>(sorted_inner_.data());
  auto* scratch = static_cast<Stored*>(scratch_.data());
  const std::size_t nr = inner.tuples.size();

  run.phase(sorted_join_phase::sort);
  const auto encode_outer = [&](std::size_t first, std::size_t count, std::byte* out) {
    encode_into(format, std::span<const Tuple>(outer.tuples.data() + first, count), reinterpret_cast<Stored*>(out));
  };
  if (stream_) stream_->start(encode_outer);  // the first chunks travel while R is sorted
  encode_sorted(format, std::span<const Tuple>(inner.tuples.data(), nr), r, scratch);
  const KeyDirectory<Format> directory(format, r, nr);

  run.phase(sorted_join_phase::distribute);
  MatchCollector matches;
  matches.keep_pairs = plan_.config.keep_pairs;
  // A chunk may still be on its way on to the next rank: it is sorted as a copy.
  auto* values = static_cast<Stored*>(visiting_.data());
  const auto join_arrived = [&](std::span<const std::byte> bytes, bool last) {
    if (last) run.phase(sorted_join_phase::end);
    join_chunk(directory, bytes, values, scratch, kBroadcastJoinBlock, matches, [&] {
      if (stream_) stream_->progress();
    });
  };
  if (udp_stream_) {
    udp_stream_->run(encode_outer, join_arrived);
    run.result().bytes_sent = udp_stream_->bytes_sent();
  } else {
    for (std::uint64_t chunk = 0; chunk < stream_->chunks(); ++chunk) {
      join_arrived(stream_->next(), chunk + 1 == stream_->chunks());
    }
    run.result().bytes_sent = stream_->bytes_sent();
  }
  run.take_matches(std::move(matches));
}

}  // namespace hpcdb
