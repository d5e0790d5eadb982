#include "hpcdb/txn/tpcc/tpcc_locks.hpp"

#include <fmt/format.h>

#include "hpcdb/txn/lock_space.hpp"

namespace hpcdb::tpcc {

std::string record_name(LockId lock) {
  const LockName n = LockSpace::name_of(lock);
  const std::uint32_t w = n.partition + 1;
  const std::uint64_t k = n.key;
  const std::uint64_t order_mask = (std::uint64_t{1} << kOrderIdBits) - 1;
  if (k == LockSpace::kWholePartition) return fmt::format("table {} of warehouse {}", n.table, w);
  switch (n.table) {
    case kWarehouseTable:
      return fmt::format("warehouse w{}", w);
    case kDistrictTable:
      return fmt::format("district w{} d{}", w, k);
    case kCustomerTable:
    case kCustomerOrderIndex:
      return fmt::format("{} w{} d{} c{}", n.table == kCustomerTable ? "customer" : "orders-by-customer entry", w,
                         k / 3000 + 1, k % 3000 + 1);
    case kHistoryTable:
      return fmt::format("history w{} d{} slot {}", w, k >> 32, k & 0xFFFFFFFFu);
    case kNewOrderTable:
    case kOrderTable: {
      const std::string table = n.table == kOrderTable ? "order" : "new-order";
      const std::uint64_t o = k & order_mask;
      return o == kOrderSupremum ? fmt::format("{} w{} d{} supremum", table, w, k >> kOrderIdBits)
                                 : fmt::format("{} w{} d{} o{}", table, w, k >> kOrderIdBits, o);
    }
    case kOrderLineTable:
      return fmt::format("order-line w{} d{} o{} n{}", w, k >> (kOrderIdBits + 4), (k >> 4) & order_mask, k & 15);
    case kItemTable:
      return fmt::format("item i{} (at warehouse {})", k, w);
    case kStockTable:
      return fmt::format("stock w{} i{}", w, k);
    case kCustomerNameIndex:
      return fmt::format("last-name entry w{} d{} hash {:#x}", w, k >> 32, k & 0xFFFFFFFFu);
    default:
      return fmt::format("lock p{}/t{}/k{}", n.partition, n.table, k);
  }
}

}  // namespace hpcdb::tpcc
