#include "hpcdb/txn/txn_config.hpp"

#include "hpcdb/core/named_values.hpp"

namespace hpcdb {

namespace {
constexpr NamedValues<IsolationLevel, 2> kIsolationNames{
    {{IsolationLevel::serializable, "serializable"}, {IsolationLevel::read_committed, "read-committed"}}};
constexpr NamedValues<DeadlockPolicy, 3> kPolicyNames{{{DeadlockPolicy::bounded_wait, "bounded-wait"},
                                                       {DeadlockPolicy::no_wait, "no-wait"},
                                                       {DeadlockPolicy::wait_die, "wait-die"}}};
constexpr NamedValues<WorkloadKind, 3> kWorkloadNames{
    {{WorkloadKind::synthetic, "synthetic"}, {WorkloadKind::tpcc, "tpcc"}, {WorkloadKind::trace, "trace"}}};
constexpr NamedValues<TpccMix, 2> kMixNames{{{TpccMix::standard, "standard"}, {TpccMix::trace, "trace"}}};
constexpr NamedValues<FailurePoint, 3> kFailurePointNames{
    {{FailurePoint::start_up, "start-up"}, {FailurePoint::run, "run"}, {FailurePoint::finish, "finish"}}};
}  // namespace

std::string to_string(IsolationLevel level) { return name_of(level, kIsolationNames); }

IsolationLevel parse_isolation_level(const std::string& text) {
  return value_named(text, kIsolationNames, "isolation level");
}

std::string to_string(DeadlockPolicy policy) { return name_of(policy, kPolicyNames); }

DeadlockPolicy parse_deadlock_policy(const std::string& text) {
  return value_named(text, kPolicyNames, "concurrency control");
}

std::string to_string(WorkloadKind kind) { return name_of(kind, kWorkloadNames); }

WorkloadKind parse_workload_kind(const std::string& text) { return value_named(text, kWorkloadNames, "workload"); }

std::string to_string(TpccMix mix) { return name_of(mix, kMixNames); }

TpccMix parse_tpcc_mix(const std::string& text) { return value_named(text, kMixNames, "mix"); }

std::string failure_point_name(FailurePoint point) {
  return point == FailurePoint::start_up ? kStartUp : point == FailurePoint::finish ? kFinish : "";
}

FailurePoint parse_failure_point(const std::string& text) {
  return value_named(text, kFailurePointNames, "--fail-during point");
}

}  // namespace hpcdb
