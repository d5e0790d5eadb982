#include "hpcdb/join/broadcast/broadcast_join.hpp"

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/phase_clock.hpp"
#include "hpcdb/join/sorted_join_run.hpp"
#include "hpcdb/join/sorted_values.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {
namespace {

constexpr std::size_t kJoinBlock = 32768;  // S tuples joined between two looks at the network

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

BroadcastPlan make_plan(const Cluster& cluster, const BroadcastJoinConfig& config, const Relation& inner,
                        const Relation& outer) {
  if (config.chunk_bytes < 64 || config.chunk_bytes > (std::size_t{1} << 30)) {
    throw UsageError("--chunk-size must be between 64 B and 1 GiB");
  }
  BroadcastPlan plan;
  plan.format = plan_sorted_format(cluster, config.compression, inner, outer);
  plan.chunk_tuples = config.chunk_bytes / plan.format.tuple_bytes;
  return plan;
}

}  // namespace

std::uint64_t broadcast_join_memory_per_rank(std::uint64_t inner_tuples, std::uint64_t /*outer_tuples*/, int ranks,
                                             const BroadcastJoinConfig& config) {
  const std::uint64_t inner = ceil_div(inner_tuples, static_cast<std::uint64_t>(ranks));
  return 2 * inner * 16 + (config.depth + 2) * static_cast<std::uint64_t>(config.chunk_bytes);
}

BroadcastJoin::BroadcastJoin(const Cluster& cluster, const BroadcastJoinConfig& config, const Relation& inner,
                             const Relation& outer)
    : cluster_(cluster), config_(config), plan_(make_plan(cluster, config, inner, outer)) {
  if (config.transport == BroadcastTransport::udp) {
    udp_stream_ = std::make_unique<UdpBroadcastStream>(cluster, config.udp, outer.tuples.size(), plan_.format.tuple_bytes,
                                                       plan_.chunk_tuples);
    plan_.chunk_tuples = std::max(plan_.chunk_tuples, udp_stream_->values_per_datagram());
  } else {
    stream_ = std::make_unique<BroadcastStream>(cluster, outer.tuples.size(), plan_.format.tuple_bytes, plan_.chunk_tuples,
                                                config.depth);
  }
  sorted_inner_ = MemoryRegion(std::max<std::size_t>(inner.tuples.size() * plan_.format.tuple_bytes, 64), Prefault::yes);
  const std::size_t scratch = std::max<std::size_t>(inner.tuples.size(), plan_.chunk_tuples) * plan_.format.tuple_bytes;
  scratch_ = MemoryRegion(std::max<std::size_t>(scratch, 64), Prefault::yes);
}

JoinResult BroadcastJoin::run(const Relation& inner, const Relation& outer) {
  JoinResult result = timed_sorted_run(cluster_, plan_.format, inner, outer, [&](const auto& format, JoinResult& r, PhaseClock& clock) {
    run_with(format, inner, outer, r, clock);
  });
  result.stream.compressed = plan_.format.compressed;
  result.stream.tuple_bytes = plan_.format.tuple_bytes;
  result.stream.key_bits = plan_.format.bounds.key_offset_bits();
  result.stream.rid_bits = plan_.format.bounds.rid_bits();
  result.stream.chunk_bytes = plan_.chunk_tuples * plan_.format.tuple_bytes;
  if (stream_) result.stream.chunks = stream_->chunks();
  if (udp_stream_) {
    const UdpBroadcastStats stats = udp_stream_->take_stats();
    result.stream.udp = true;
    result.stream.datagrams = allreduce(stats.datagrams, MPI_SUM, cluster_.world());
    result.stream.resent = allreduce(stats.resent, MPI_SUM, cluster_.world());
    result.stream.dropped_on_purpose = allreduce(stats.dropped_on_purpose, MPI_SUM, cluster_.world());
    result.stream.duplicates_seen = allreduce(stats.duplicates_seen, MPI_SUM, cluster_.world());
    result.stream.phases = allreduce(stats.phases, MPI_MAX, cluster_.world());
  }
  return result;
}

template <class Format>
void BroadcastJoin::run_with(const Format& format, const Relation& inner, const Relation& outer, JoinResult& result,
                             PhaseClock& clock) {
  using Stored = typename Format::Stored;
  auto* r = static_cast<Stored*>(sorted_inner_.data());
  auto* scratch = static_cast<Stored*>(scratch_.data());
  const std::size_t nr = inner.tuples.size();

  clock.start("sort");
  const auto encode_outer = [&](std::size_t first, std::size_t count, std::byte* out) {
    encode_into(format, std::span<const Tuple>(outer.tuples.data() + first, count), reinterpret_cast<Stored*>(out));
  };
  if (stream_) stream_->start(encode_outer);  // the first chunks travel while R is sorted
  encode_sorted(format, std::span<const Tuple>(inner.tuples.data(), nr), r, scratch);

  clock.start("distribute");
  MatchCollector matches;
  matches.keep_pairs = config_.keep_pairs;
  const auto join_chunk = [&](std::span<std::byte> bytes, bool last) {
    if (last) clock.start("end");
    auto* values = reinterpret_cast<Stored*>(bytes.data());
    const std::size_t n = bytes.size() / sizeof(Stored);
    if (n == 0) return;
    sort_by_key(values, n, scratch);
    join_sorted_in_blocks(format, r, nr, values, n, kJoinBlock, matches, [&] {
      if (stream_) stream_->progress();
    });
  };
  if (udp_stream_) {
    udp_stream_->run(encode_outer, join_chunk);
    result.bytes_sent = udp_stream_->bytes_sent();
  } else {
    for (std::uint64_t chunk = 0; chunk < stream_->chunks(); ++chunk) {
      join_chunk(stream_->next(), chunk + 1 == stream_->chunks());
    }
    result.bytes_sent = stream_->bytes_sent();
  }
  clock.stop();
  result.matches = matches.count;
  result.checksum = matches.checksum;
  result.pairs = std::move(matches.pairs);
}

}  // namespace hpcdb
