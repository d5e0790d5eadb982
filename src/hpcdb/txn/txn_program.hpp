#pragma once
// The transaction-program interface. A workload is defined once for the whole
// job (WorkloadDefinition: how many partitions, what the data looks like, how
// lock agents load and check it) and gives every transaction agent a
// generator of transactions (TransactionSource); each transaction is a
// program that runs against a Transaction, deciding its next lock, read or
// write from what it has read. The agents know nothing else about workloads.
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "hpcdb/txn/agent_roles.hpp"
#include "hpcdb/txn/data_store.hpp"
#include "hpcdb/txn/serializability_checker.hpp"
#include "hpcdb/txn/transaction.hpp"
#include "hpcdb/txn/txn_config.hpp"
#include "hpcdb/txn/txn_history.hpp"
#include "hpcdb/txn/txn_metrics.hpp"

namespace hpcdb {

constexpr int kMaxTxnTypes = kMetricTypes;

// How a program ends an attempt that no lock denial cut short.
enum class ProgramEnd {
  commit,     // make its writes durable (in memory) and release its locks
  roll_back,  // the program's own decision to undo everything (TPC-C's unknown item)
};

class TransactionProgram {
 public:
  virtual ~TransactionProgram() = default;
  // One attempt. A denied lock throws AttemptAborted out of it; the caller
  // then rolls the transaction back and may run the same program again.
  virtual ProgramEnd run(Transaction& txn) = 0;
};

struct NextTransaction {
  int type = 0;  // index into WorkloadDefinition::type_names()
  std::uint32_t home = 0;  // the partition it is issued for (TPC-C: the home warehouse), for lock traces
  TransactionProgram* program = nullptr;  // valid until the source's next call
};

class TransactionSource {
 public:
  virtual ~TransactionSource() = default;
  // Draws the next transaction: its type and its inputs.
  virtual NextTransaction next(std::mt19937_64& rng) = 0;
};

// One condition a workload's data must satisfy after a run (e.g. TPC-C's 3.3.2.x).
struct ConditionResult {
  std::string name;
  std::uint64_t checked = 0;     // how many instances (e.g. districts) were checked
  std::uint64_t violations = 0;
  std::string first_violation;   // for a person to read
};

// Everything one transaction agent needs to build its source.
struct SourceContext {
  const TxnEngineConfig& config;
  const AgentRoles& roles;
  const LockSpace& space;
  int rank;
};

class WorkloadDefinition {
 public:
  virtual ~WorkloadDefinition() = default;
  virtual std::string name() const = 0;
  virtual std::vector<std::string> type_names() const = 0;
  // How many partitions the lock space has for this many lock agents.
  virtual std::uint32_t partitions(int lock_agents) const = 0;
  // Bytes per partition and per lock agent's replica (zeros: no data).
  virtual DataShape data_shape() const = 0;

  // At a lock agent before the run: fills its partitions and its replica.
  virtual void load(DataStore& store, const LockSpace& space, int agent) const = 0;
  // At a lock agent after the run, before check(): what its partitions say
  // about other lock agents' partitions (TPC-C: payments recorded in one
  // warehouse's history for customers of another), as words that every lock
  // agent then receives from every other.
  virtual std::vector<std::uint64_t> facts_for_others(DataStore&, const LockSpace&, int) const { return {}; }
  // At a lock agent after the run: the workload's consistency conditions over
  // its partitions; `facts`: every lock agent's facts_for_others, concatenated.
  virtual std::vector<ConditionResult> check(DataStore& store, const LockSpace& space, int agent,
                                             std::span<const std::uint64_t> facts) const = 0;
  // At a lock agent after the run: every record whose version is not 0 (the history check's final state).
  virtual std::vector<RecordVersion> final_versions(DataStore& store, const LockSpace& space, int agent) const = 0;

  // A record (a lock id) as the history check's messages name it.
  virtual std::string record_name(LockId record) const { return lock_id_name(record); }

  // At a transaction agent: its generator of transactions. Throws UsageError
  // when the agent cannot run this workload where it is placed.
  virtual std::unique_ptr<TransactionSource> source(const SourceContext& context) const = 0;
};

}  // namespace hpcdb
