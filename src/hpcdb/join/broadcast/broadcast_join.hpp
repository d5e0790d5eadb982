#pragma once
// The broadcast join (one operator instance per rank): every rank's S
// fragment is sent once to every other rank, in chunks, and every rank
// joins each arriving chunk with its own sorted R while the next chunks
// travel.
//
// Plan (agreed by all ranks, from the agreed facts): tuples as 8-byte values
// when the keys' offsets and the rids fit together, else 16-byte tuples;
// the global order of chunks (owner by owner).
// run() (timed, repeatable):
//   sort        R_i sorted
//   distribute  every chunk but the last: it arrives (broadcast_stream.hpp), is sorted
//               and merge-joined with R_i while the next chunks travel
//   end         the last chunk's wait, sort and join
// With the UDP transport, the chunks are the batches of datagrams a rank
// has collected (see udp_broadcast_stream.hpp), and `end` is the last one.
// Network time (thesis model): |S| tuple bytes / link bandwidth, as every
// tuple leaves its owner once for all ranks.
#include <cstdint>
#include <memory>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/data/relation.hpp"
#include "hpcdb/join/broadcast/broadcast_stream.hpp"
#include "hpcdb/join/broadcast/udp_broadcast_stream.hpp"
#include "hpcdb/join/distributed_join.hpp"
#include "hpcdb/join/broadcast/broadcast_plan.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/join_memory.hpp"
#include "hpcdb/join/sorted_join_run.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

class BroadcastJoin : public DistributedJoin {
 public:
  // Collective. Allocates the stream and sort space the plan needs.
  BroadcastJoin(const Cluster& cluster, const BroadcastPlan& plan);
  // Collective. Plans from the agreed facts of these relations first.
  BroadcastJoin(const Cluster& cluster, const BroadcastJoinConfig& config, const Relation& inner, const Relation& outer);
  JoinResult run(const Relation& inner, const Relation& outer) override;
  const BroadcastPlan& plan() const { return plan_; }

 private:
  template <class Format>
  void run_with(const Format& format, const Relation& inner, const Relation& outer, class JoinRun& run);

  const Cluster& cluster_;
  BroadcastPlan plan_;
  std::unique_ptr<BroadcastStream> stream_;        // mpi transport
  std::unique_ptr<UdpBroadcastStream> udp_stream_;  // udp transport
  MemoryRegion sorted_inner_;
  MemoryRegion scratch_;
  MemoryRegion visiting_;  // a sorted copy of the chunk being joined
};

}  // namespace hpcdb
