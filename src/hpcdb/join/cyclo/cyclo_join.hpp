#pragma once
// The cyclo join (one operator instance per rank): R stays where it is, the
// fragments of S travel around the ring of ranks, and every rank joins each
// visiting fragment with its own sorted R while the fragment moves on.
//
// Plan (agreed by all ranks, from the agreed facts): tuples as 8-byte values
// when the keys' offsets and the rids fit together, else 16-byte tuples;
// two ring buffers per rank sized for the largest S fragment.
// run() (timed, repeatable):
//   sort        R_i sorted; S_i placed in ring buffer 0, sorted unless
//               presort is off
//   distribute  cycles 0 .. n-2: the visiting part is forwarded to the
//               successor in chunks (one-sided puts) while it is joined
//               with R_i (sorted first when presort is off)
//   end         cycle n-1: waiting for the last part and joining it
// Network time (thesis model): (n-1) |S_i| tuple bytes / link bandwidth.
#include <cstdint>
#include <memory>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/data/relation.hpp"
#include "hpcdb/join/cyclo/ring_channel.hpp"
#include "hpcdb/join/distributed_join.hpp"
#include "hpcdb/join/cyclo/cyclo_plan.hpp"
#include "hpcdb/join/sorted_join_run.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

class CycloJoin : public DistributedJoin {
 public:
  // Collective. Allocates the ring and sort space the plan needs.
  CycloJoin(const Cluster& cluster, const CycloPlan& plan);
  // Collective. Plans from the agreed facts of these relations first.
  CycloJoin(const Cluster& cluster, const CycloJoinConfig& config, const Relation& inner, const Relation& outer);
  JoinResult run(const Relation& inner, const Relation& outer) override;
  const CycloPlan& plan() const { return plan_; }

 private:
  template <class Format>
  void run_with(const Format& format, const Relation& inner, const Relation& outer, class JoinRun& run);

  const Cluster& cluster_;
  CycloPlan plan_;
  std::unique_ptr<RingChannel> ring_;
  MemoryRegion sorted_inner_;  // R_i in the plan's format
  MemoryRegion visiting_;      // a sorted copy of the visiting part (presort off)
  MemoryRegion scratch_;       // sort work space
};

}  // namespace hpcdb
