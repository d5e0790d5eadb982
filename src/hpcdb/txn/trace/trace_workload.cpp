#include "hpcdb/txn/trace/trace_workload.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "hpcdb/core/error.hpp"
#include "hpcdb/txn/home_partitions.hpp"
#include "hpcdb/txn/trace/trace_lock_ids.hpp"

namespace hpcdb {
namespace {

constexpr std::array<const char*, 5> kTraceNames{"neword", "payment", "ordstat", "delivery", "slev"};
const std::vector<std::string> kTypeNames{"new-order", "payment", "order-status", "delivery", "stock-level", "other"};

class TraceReplay final : public TransactionProgram {
 public:
  const TraceTransaction* transaction = nullptr;
  ProgramEnd run(Transaction& txn) override {
    for (const TracedLock& l : transaction->locks) txn.lock(l.lock, l.mode);
    return ProgramEnd::commit;
  }
};

// A home warehouse's file as one agent replays it: every `share_count`-th
// transaction from the `share_index`-th on, when several agents share the warehouse.
struct HomeShare {
  std::uint32_t partition;
  std::size_t share_index;
  std::size_t share_count;
};

class TraceSource final : public TransactionSource {
 public:
  TraceSource(const std::string& dir, std::uint32_t warehouses, std::uint64_t locks_per_warehouse,
              const std::vector<HomeShare>& shares) {
    for (const HomeShare& share : shares) {
      const std::string path = trace_file_name(dir, share.partition + 1);
      Home home{share.partition, {}, 0};
      std::size_t seen = 0;
      for (TraceTransaction& t : read_trace_file(path)) {
        for (TracedLock& l : t.locks) {
          if (l.lock / locks_per_warehouse >= warehouses) {
            throw UsageError(fmt::format("{}: transaction {} locks {}, which belongs to warehouse {} ({} locks per "
                                         "warehouse), but the trace has only {} warehouse file(s)",
                                         path, t.number, l.lock, l.lock / locks_per_warehouse + 1, locks_per_warehouse,
                                         warehouses));
          }
          l.lock = from_trace_lock_id(l.lock, locks_per_warehouse);
        }
        if (t.locks.size() >= TraceWorkload::kMaxLocks) continue;
        if (seen++ % share.share_count == share.share_index) home.transactions.push_back(std::move(t));
      }
      if (!home.transactions.empty()) homes_.push_back(std::move(home));
    }
    if (homes_.empty()) {
      throw UsageError("the lock trace files of this transaction agent's warehouses hold no transaction (under " +
                       std::to_string(TraceWorkload::kMaxLocks) + " locks) for it to replay");
    }
  }

  NextTransaction next(std::mt19937_64&) override {
    Home& home = homes_[turn_++ % homes_.size()];
    const TraceTransaction& t = home.transactions[home.next++ % home.transactions.size()];
    replay_.transaction = &t;
    return {TraceWorkload::type_of(t.name), home.partition, &replay_};
  }

 private:
  struct Home {
    std::uint32_t partition;
    std::vector<TraceTransaction> transactions;
    std::size_t next;
  };
  std::vector<Home> homes_;
  std::size_t turn_ = 0;
  TraceReplay replay_;
};

// The agent's home warehouses, each with its share among the agents that have it as home.
std::vector<HomeShare> home_shares(const std::vector<std::vector<std::uint32_t>>& homes, std::size_t agent) {
  std::vector<HomeShare> shares;
  for (std::uint32_t p : homes[agent]) {
    HomeShare share{p, 0, 0};
    for (std::size_t a = 0; a < homes.size(); ++a) {
      if (std::find(homes[a].begin(), homes[a].end(), p) == homes[a].end()) continue;
      if (a < agent) ++share.share_index;
      ++share.share_count;
    }
    shares.push_back(share);
  }
  return shares;
}

}  // namespace

TraceWorkload::TraceWorkload(const TxnEngineConfig& config)
    : dir_(config.trace_dir), warehouses_(0), locks_per_warehouse_(0) {
  if (dir_.empty()) throw UsageError("--workload trace needs --trace-dir DIR (written by --trace-out DIR)");
  if (config.record_history) throw UsageError("--check needs data, and a lock trace replay has none");
  warehouses_ = count_trace_files(dir_);
  locks_per_warehouse_ = read_locks_per_warehouse(dir_);
}

std::vector<std::string> TraceWorkload::type_names() const { return kTypeNames; }

int TraceWorkload::type_of(const std::string& trace_name) {
  for (std::size_t t = 0; t < kTraceNames.size(); ++t)
    if (trace_name == kTraceNames[t]) return static_cast<int>(t);
  return static_cast<int>(kTraceNames.size());
}

std::string TraceWorkload::trace_name_of(const std::string& type_name) {
  for (std::size_t t = 0; t < kTraceNames.size(); ++t)
    if (type_name == kTypeNames[t]) return kTraceNames[t];
  return type_name;
}

std::unique_ptr<TransactionSource> TraceWorkload::source(const SourceContext& context) const {
  const auto homes = assign_home_partitions(context.roles, context.space, context.config.homes);
  const auto agent = static_cast<std::size_t>(context.roles.txn_agent_index(context.rank));
  return std::make_unique<TraceSource>(dir_, warehouses_, locks_per_warehouse_, home_shares(homes, agent));
}

}  // namespace hpcdb
