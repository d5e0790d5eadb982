#pragma once
// The join operators behind one interface: the chosen algorithm's plan,
// made once from agreed facts (join_facts.hpp), and the operator built from
// it. The command plans first (every rank the same plan, so a bad option
// fails on every rank alike, before anything is allocated), then builds.
#include <memory>
#include <string>
#include <variant>

#include "hpcdb/data/relation.hpp"
#include "hpcdb/join/broadcast/broadcast_config.hpp"
#include "hpcdb/join/broadcast/broadcast_plan.hpp"
#include "hpcdb/join/cyclo/cyclo_config.hpp"
#include "hpcdb/join/cyclo/cyclo_plan.hpp"
#include "hpcdb/join/distributed_join.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/join_memory.hpp"
#include "hpcdb/join/radix/radix_config.hpp"
#include "hpcdb/join/radix/radix_plan.hpp"
#include "hpcdb/join/sortmerge/sort_merge_config.hpp"
#include "hpcdb/join/sortmerge/sort_merge_plan.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

enum class JoinAlgorithm { radix, sort_merge, cyclo, broadcast };

JoinAlgorithm parse_join_algorithm(const std::string& name);  // UsageError for others
std::string to_string(JoinAlgorithm algorithm);                // as --algorithm takes it

// Every operator's options; only the chosen algorithm's are used.
struct JoinConfigs {
  JoinAlgorithm algorithm = JoinAlgorithm::radix;
  RadixJoinConfig radix;
  SortMergeJoinConfig sort_merge;
  CycloJoinConfig cyclo;
  BroadcastJoinConfig broadcast;
};

using JoinPlan = std::variant<RadixPlan, SortMergePlan, CycloPlan, BroadcastPlan>;

// The chosen algorithm's plan (UsageError for bad options).
JoinPlan plan_join(const JoinFacts& facts, const JoinConfigs& configs);

MemoryEstimate memory_of(const JoinPlan& plan);
unsigned tuple_bytes_of(const JoinPlan& plan);  // on the wire and in the windows
// The phases the algorithm reports, in order (what --fail-phase may name, besides "setup").
std::vector<std::string> phases_of(const JoinConfigs& configs);

// Collective: the operator for `plan` (allocates and pre-faults its memory).
std::unique_ptr<DistributedJoin> make_join(const Cluster& cluster, const JoinPlan& plan);

}  // namespace hpcdb
