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
  // Each region starts on a cache line, one after the other.
  std::uint64_t at = 0;
  const auto place = [&at](std::uint64_t bytes) {
    const std::uint64_t start = at;
    at = aligned(at + bytes);
    return start;
  };
  place(sizeof(Warehouse));
  districts_ = place(kDistricts * sizeof(District));
  customers_ = place(static_cast<std::uint64_t>(kDistricts) * kCustomers * sizeof(Customer));
  stock_ = place(static_cast<std::uint64_t>(kItems) * sizeof(Stock));
  areas_ = at;

  at = 0;
  place(sizeof(DistrictAreaHeader));
  orders_ = place(order_slots_ * sizeof(Order));
  first_lines_ = place(order_slots_ * 8);
  new_orders_ = place(order_slots_ * sizeof(NewOrder));
  lines_ = place(line_slots_ * sizeof(OrderLine));
  history_ = place(history_slots_ * sizeof(History));
  latest_ = place(kCustomers * 8);
  buckets_ = place(kNameBuckets * sizeof(NameBucket));
  entries_ = place(kCustomers * sizeof(NameEntry));
  area_bytes_ = at;
  partition_bytes_ = areas_ + kDistricts * area_bytes_;
}

}  // namespace hpcdb::tpcc
