#include "hpcdb/txn/tpcc/tpcc_layout.hpp"

#include <cmath>

namespace hpcdb::tpcc {
namespace {

std::uint64_t aligned(std::uint64_t offset) { return (offset + 63) / 64 * 64; }

// Slots for the rows appended once per order on average, `per_order` times
// each (order lines: 10 on average): the mean plus 16 standard deviations of
// TPC-C's uniform 5..15 lines per order, so that a full area means the
// orders ran out, not the lines.
std::uint64_t slots_for(std::uint64_t orders, std::uint64_t per_order) {
  const double mean = static_cast<double>(orders * per_order);
  return static_cast<std::uint64_t>(mean + 16 * std::ceil(std::sqrt(mean)) + kMaxLines);
}

}  // namespace

TpccLayout::TpccLayout(std::uint64_t order_capacity)
    : order_capacity_(order_capacity),
      order_slots_(kInitialOrders + order_capacity),
      line_slots_(slots_for(order_slots_, 10)),
      history_slots_(slots_for(order_slots_, 1)) {
  std::uint64_t at = aligned(sizeof(Warehouse));
  districts_ = at;
  at = aligned(at + kDistricts * sizeof(District));
  customers_ = at;
  at = aligned(at + static_cast<std::uint64_t>(kDistricts) * kCustomers * sizeof(Customer));
  stock_ = at;
  at = aligned(at + static_cast<std::uint64_t>(kItems) * sizeof(Stock));
  areas_ = at;

  std::uint64_t a = aligned(sizeof(DistrictAreaHeader));
  orders_ = a;
  a = aligned(a + order_slots_ * sizeof(Order));
  first_lines_ = a;
  a = aligned(a + order_slots_ * 8);
  new_orders_ = a;
  a = aligned(a + order_slots_ * sizeof(NewOrder));
  lines_ = a;
  a = aligned(a + line_slots_ * sizeof(OrderLine));
  history_ = a;
  a = aligned(a + history_slots_ * sizeof(History));
  latest_ = a;
  a = aligned(a + kCustomers * 8);
  buckets_ = a;
  a = aligned(a + kNameBuckets * sizeof(NameBucket));
  entries_ = a;
  a = aligned(a + kCustomers * sizeof(NameEntry));
  area_bytes_ = a;
  partition_bytes_ = areas_ + kDistricts * area_bytes_;
}

}  // namespace hpcdb::tpcc
