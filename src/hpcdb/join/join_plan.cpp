#include "hpcdb/join/join_plan.hpp"

#include "hpcdb/core/error.hpp"
#include "hpcdb/join/broadcast/broadcast_join.hpp"
#include "hpcdb/join/cyclo/cyclo_join.hpp"
#include "hpcdb/join/radix/radix_join.hpp"
#include "hpcdb/join/radix/radix_phases.hpp"
#include "hpcdb/join/sorted_join_phases.hpp"
#include "hpcdb/join/sortmerge/sort_merge_phases.hpp"
#include "hpcdb/join/sortmerge/sort_merge_join.hpp"

namespace hpcdb {

JoinAlgorithm parse_join_algorithm(const std::string& name) {
  if (name == "radix") return JoinAlgorithm::radix;
  if (name == "sort-merge") return JoinAlgorithm::sort_merge;
  if (name == "cyclo") return JoinAlgorithm::cyclo;
  if (name == "broadcast") return JoinAlgorithm::broadcast;
  throw UsageError("--algorithm must be radix, sort-merge, cyclo or broadcast, not '" + name + "'");
}

std::string to_string(JoinAlgorithm algorithm) {
  switch (algorithm) {
    case JoinAlgorithm::radix: return "radix";
    case JoinAlgorithm::sort_merge: return "sort-merge";
    case JoinAlgorithm::cyclo: return "cyclo";
    case JoinAlgorithm::broadcast: return "broadcast";
  }
  return "unknown";
}

JoinPlan plan_join(const JoinFacts& facts, const JoinConfigs& c) {
  switch (c.algorithm) {
    case JoinAlgorithm::radix: return plan_radix_join(facts, c.radix);
    case JoinAlgorithm::sort_merge: return plan_sort_merge_join(facts, c.sort_merge);
    case JoinAlgorithm::cyclo: return plan_cyclo_join(facts, c.cyclo);
    case JoinAlgorithm::broadcast: return plan_broadcast_join(facts, c.broadcast);
  }
  throw Error("unknown join algorithm");
}

MemoryEstimate memory_of(const JoinPlan& plan) {
  return std::visit([](const auto& p) { return p.memory(); }, plan);
}

unsigned tuple_bytes_of(const JoinPlan& plan) {
  struct Visitor {
    unsigned operator()(const RadixPlan& p) const { return p.tuple_bytes; }
    unsigned operator()(const SortMergePlan& p) const { return p.format.tuple_bytes; }
    unsigned operator()(const CycloPlan& p) const { return p.format.tuple_bytes; }
    unsigned operator()(const BroadcastPlan& p) const { return p.format.tuple_bytes; }
  };
  return std::visit(Visitor{}, plan);
}

std::vector<std::string> phases_of(const JoinConfigs& c) {
  switch (c.algorithm) {
    case JoinAlgorithm::radix: return radix_phase::all(c.radix.scheduled);
    case JoinAlgorithm::sort_merge: return sort_merge_phase::all();
    case JoinAlgorithm::cyclo:
    case JoinAlgorithm::broadcast: return sorted_join_phase::all();
  }
  return {};
}

std::unique_ptr<DistributedJoin> make_join(const Cluster& cluster, const JoinPlan& plan) {
  struct Visitor {
    const Cluster& cluster;
    std::unique_ptr<DistributedJoin> operator()(const RadixPlan& p) const { return std::make_unique<RadixJoin>(cluster, p); }
    std::unique_ptr<DistributedJoin> operator()(const SortMergePlan& p) const {
      return std::make_unique<SortMergeJoin>(cluster, p);
    }
    std::unique_ptr<DistributedJoin> operator()(const CycloPlan& p) const { return std::make_unique<CycloJoin>(cluster, p); }
    std::unique_ptr<DistributedJoin> operator()(const BroadcastPlan& p) const {
      return std::make_unique<BroadcastJoin>(cluster, p);
    }
  };
  return std::visit(Visitor{cluster}, plan);
}

}  // namespace hpcdb
