#include "hpcdb/txn/tpcc/tpcc_workload.hpp"

#include <cmath>
#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/txn/condition_results.hpp"
#include "hpcdb/txn/home_partitions.hpp"
#include "hpcdb/txn/tpcc/tpcc_consistency.hpp"
#include "hpcdb/txn/tpcc/tpcc_locks.hpp"
#include "hpcdb/txn/tpcc/tpcc_mix.hpp"
#include "hpcdb/txn/tpcc/tpcc_source.hpp"

namespace hpcdb::tpcc {
namespace {

// Loading dates: the start of the current hour, the same on every rank.
Date load_date() {
  constexpr Date hour = 3'600'000'000;
  return now_date() / hour * hour;
}

}  // namespace

std::uint64_t TpccWorkload::default_order_capacity(const TxnEngineConfig& config, int ranks) {
  if (config.transactions_per_agent > 0) {
    const double new_orders = static_cast<double>(config.transactions_per_agent) * std::max(1, ranks - 1) * 0.5;
    return 1000 + static_cast<std::uint64_t>(std::ceil(new_orders / kDistricts));
  }
  return 1000 + static_cast<std::uint64_t>(std::ceil(500 * config.duration_seconds));
}

TpccWorkload::TpccWorkload(const TxnEngineConfig& config, int ranks)
    : config_(config),
      layout_(config.order_capacity > 0 ? config.order_capacity : default_order_capacity(config, ranks)) {
  if (!config.access_data) throw UsageError("--workload tpcc needs data access (drop --no-data, or replay a --workload trace)");
  if (layout_.order_slots() >= kOrderSupremum) {
    throw UsageError("--order-capacity must be below " + std::to_string(kOrderSupremum - kInitialOrders));
  }
  if (!(config.remote_item_probability >= 0 && config.remote_item_probability <= 1) ||
      !(config.remote_customer_probability >= 0 && config.remote_customer_probability <= 1)) {
    throw UsageError("remote warehouse probabilities must be between 0 and 1");
  }
  load_.seed = config.seed;
  load_.constants = NurandConstants::from_seed(config.seed);
  load_.now = load_date();
}

std::vector<std::string> TpccWorkload::type_names() const {
  return {"new-order", "payment", "order-status", "delivery", "stock-level"};
}

std::uint32_t TpccWorkload::partitions(int lock_agents) const {
  return config_.warehouses > 0 ? config_.warehouses : static_cast<std::uint32_t>(lock_agents);
}

DataShape TpccWorkload::data_shape() const { return {layout_.partition_bytes(), layout_.replica_bytes()}; }

void TpccWorkload::load(DataStore& store, const LockSpace& space, int agent) const {
  for (std::uint32_t p = space.first_partition_of(agent); p < space.end_partition_of(agent); ++p) {
    load_warehouse(store.local_partition(p), layout_, static_cast<int>(p) + 1, load_);
  }
  load_items(store.local_replica(), load_);
}

std::vector<std::uint64_t> TpccWorkload::facts_for_others(DataStore& store, const LockSpace& space, int agent) const {
  store.refresh_local_view();
  std::vector<std::uint64_t> words;
  for (std::uint32_t p = space.first_partition_of(agent); p < space.end_partition_of(agent); ++p) {
    for (const CustomerPayment& paid : payments_to_other_warehouses(store.local_partition(p), layout_, static_cast<int>(p) + 1)) {
      append_encoded(paid, words);
    }
  }
  return words;
}

std::vector<ConditionResult> TpccWorkload::check(DataStore& store, const LockSpace& space, int agent,
                                                 std::span<const std::uint64_t> facts) const {
  store.refresh_local_view();
  const std::vector<CustomerPayment> paid_elsewhere = decode_payments(facts);
  std::vector<std::vector<ConditionResult>> parts;
  for (std::uint32_t p = space.first_partition_of(agent); p < space.end_partition_of(agent); ++p) {
    parts.push_back(check_consistency(store.local_partition(p), layout_, static_cast<int>(p) + 1, paid_elsewhere));
  }
  return merge_conditions(parts);
}

std::vector<RecordVersion> TpccWorkload::final_versions(DataStore& store, const LockSpace& space, int agent) const {
  store.refresh_local_view();
  std::vector<RecordVersion> out;
  for (std::uint32_t p = space.first_partition_of(agent); p < space.end_partition_of(agent); ++p) {
    const auto rows = written_rows(store.local_partition(p), layout_, static_cast<int>(p) + 1);
    out.insert(out.end(), rows.begin(), rows.end());
  }
  return out;
}

std::unique_ptr<TransactionSource> TpccWorkload::source(const SourceContext& context) const {
  InputRules rules;
  rules.warehouses = static_cast<int>(context.space.partitions());
  rules.constants = load_.constants;
  rules.remote_item = config_.remote_item_probability;
  rules.remote_customer = config_.remote_customer_probability;
  const auto homes = assign_home_partitions(context.roles, context.space, context.config.homes);
  std::vector<int> warehouses;
  for (std::uint32_t p : homes[static_cast<std::size_t>(context.roles.txn_agent_index(context.rank))]) {
    warehouses.push_back(static_cast<int>(p) + 1);
  }
  return std::make_unique<TpccSource>(layout_, rules, config_.mix, std::move(warehouses));
}

}  // namespace hpcdb::tpcc
