// TPC-C's consistency conditions 1-12 on loaded warehouses: all hold at
// load, and for each condition a corruption that breaks that one alone (the
// conditions overlap: some corruptions change several rows so that the
// others still hold).
#include "hpcdb/txn/tpcc/tpcc_consistency.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "hpcdb/txn/tpcc/tpcc_population.hpp"

namespace hpcdb::tpcc {
namespace {

constexpr int kW = 2;  // the first warehouse's number; the second is kW + 1

class TpccConsistency : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    layout_ = new TpccLayout(100);
    LoadSettings settings;
    settings.seed = 11;
    settings.constants = NurandConstants::from_seed(11);
    settings.now = kNow;
    loaded_ = new std::vector<std::vector<std::byte>>(2, std::vector<std::byte>(layout_->partition_bytes()));
    for (int i = 0; i < 2; ++i) load_warehouse((*loaded_)[static_cast<std::size_t>(i)].data(), *layout_, kW + i, settings);
  }
  static void TearDownTestSuite() {
    delete loaded_;
    delete layout_;
  }
  void SetUp() override { data_ = (*loaded_)[0]; }

  template <class Row>
  Row& at(std::uint64_t offset) {
    return *reinterpret_cast<Row*>(data_.data() + offset);
  }
  // The conditions (by number) that the first warehouse violates.
  std::vector<int> violated() {
    std::vector<int> out;
    const auto results = check_consistency(data_.data(), *layout_, kW, {});
    EXPECT_EQ(results.size(), 12u);
    for (std::size_t i = 0; i < results.size(); ++i) {
      EXPECT_GT(results[i].checked, 0u) << results[i].name;
      if (results[i].violations > 0) out.push_back(static_cast<int>(i + 1));
    }
    return out;
  }
  std::uint64_t first_line(int d, std::uint64_t o) { return at<std::uint64_t>(layout_->first_line(d, o)); }
  OrderLine& line(int d, std::uint64_t slot) { return at<OrderLine>(layout_->order_line(d, slot)); }
  // A history row in a free slot of district 1's area.
  History& spare_history_row() { return at<History>(layout_->history(1, kCustomers)); }

  static constexpr Date kNow = 1'700'000'000'000'000;
  static TpccLayout* layout_;
  static std::vector<std::vector<std::byte>>* loaded_;
  std::vector<std::byte> data_;
};
TpccLayout* TpccConsistency::layout_ = nullptr;
std::vector<std::vector<std::byte>>* TpccConsistency::loaded_ = nullptr;

TEST_F(TpccConsistency, AllHoldAtLoad) {
  for (const ConditionResult& c : check_consistency(data_.data(), *layout_, kW, {})) {
    EXPECT_EQ(c.violations, 0u) << c.name << ": " << c.first_violation;
  }
  EXPECT_TRUE(violated().empty());
  EXPECT_TRUE(written_rows(data_.data(), *layout_, kW).empty()) << "nothing written yet";
  at<OrderLine>(layout_->order_line(6, 77)).version = 9;
  EXPECT_EQ(written_rows(data_.data(), *layout_, kW).size(), 1u);
}

TEST_F(TpccConsistency, Condition1WarehouseYtdAgainstDistricts) {
  // W_YTD grows by a payment whose history row names no district: the
  // history still sums to W_YTD (8) and each district to its D_YTD (9).
  at<Warehouse>(layout_->warehouse()).w_ytd += 500;
  History& h = spare_history_row();
  h.h_w_id = kW;
  h.h_amount = 500;
  EXPECT_EQ(violated(), std::vector<int>{1});
}

TEST_F(TpccConsistency, Condition2NextOrderId) {
  at<District>(layout_->district(4)).d_next_o_id += 1;
  EXPECT_EQ(violated(), std::vector<int>{2});
}

TEST_F(TpccConsistency, Condition3NewOrdersWithoutGaps) {
  // Order 2500 of district 5 delivered completely, out of turn: its
  // new-order row gone, carrier and delivery dates set, its customer charged.
  at<NewOrder>(layout_->new_order(5, 2500)).no_o_id = 0;
  Order& order = at<Order>(layout_->order(5, 2500));
  order.o_carrier_id = 3;
  Money amount = 0;
  for (int n = 0; n < order.o_ol_cnt; ++n) {
    OrderLine& l = line(5, first_line(5, 2500) + static_cast<std::uint64_t>(n));
    l.ol_delivery_d = kNow;
    amount += l.ol_amount;
  }
  Customer& customer = at<Customer>(layout_->customer(5, order.o_c_id));
  customer.c_balance += amount;
  ++customer.c_delivery_cnt;
  EXPECT_EQ(violated(), std::vector<int>{3});
}

TEST_F(TpccConsistency, Condition4OrderLinesOfTheDistrict) {
  // A delivered order line of an order that is not there (3050 was never
  // entered): no order counts it, and it belongs to no customer.
  OrderLine& l = line(6, at<DistrictAreaHeader>(layout_->area_header(6)).order_line_tail);
  l.ol_o_id = 3050;
  l.ol_d_id = 6;
  l.ol_w_id = kW;
  l.ol_number = 1;
  l.ol_delivery_d = kNow;
  l.ol_amount = 100;
  EXPECT_EQ(violated(), std::vector<int>{4});
}

TEST_F(TpccConsistency, Condition5CarrierAgainstNewOrders) {
  // Order 100 of district 2 (delivered at load, its lines of amount 0) made
  // undelivered, without a new-order row.
  Order& order = at<Order>(layout_->order(2, 100));
  order.o_carrier_id = 0;
  for (int n = 0; n < order.o_ol_cnt; ++n) line(2, first_line(2, 100) + static_cast<std::uint64_t>(n)).ol_delivery_d = 0;
  EXPECT_EQ(violated(), std::vector<int>{5});
}

TEST_F(TpccConsistency, Condition6LinesOfEachOrder) {
  // The last line of order 10 of district 3 moved to order 11 (both delivered at load).
  const auto count = static_cast<std::uint64_t>(at<Order>(layout_->order(3, 10)).o_ol_cnt);
  OrderLine& moved = line(3, first_line(3, 10) + count - 1);
  moved.ol_o_id = 11;
  moved.ol_number = at<Order>(layout_->order(3, 11)).o_ol_cnt + 1;
  EXPECT_EQ(violated(), std::vector<int>{6});
}

TEST_F(TpccConsistency, Condition7DeliveryDatesAgainstCarrier) {
  line(4, first_line(4, 20)).ol_delivery_d = 0;  // order 20 was delivered at load
  EXPECT_EQ(violated(), std::vector<int>{7});
}

TEST_F(TpccConsistency, Condition8WarehouseYtdAgainstHistory) {
  History& h = spare_history_row();  // a payment to no district and no customer
  h.h_w_id = kW;
  h.h_amount = 700;
  EXPECT_EQ(violated(), std::vector<int>{8});
}

TEST_F(TpccConsistency, Condition9DistrictYtdAgainstHistory) {
  at<History>(layout_->history(3, 5)).h_d_id = 4;  // a payment booked to the wrong district
  EXPECT_EQ(violated(), std::vector<int>{9});
}

TEST_F(TpccConsistency, Condition10BalanceAgainstDeliveriesAndPayments) {
  History& h = at<History>(layout_->history(2, 7));
  h.h_c_id = h.h_c_id % kCustomers + 1;  // the payment of one customer credited to another
  EXPECT_EQ(violated(), std::vector<int>{10});
}

TEST_F(TpccConsistency, Condition11OrdersMinusNewOrders) {
  ++at<Customer>(layout_->customer(7, 42)).c_delivery_cnt;  // a delivery that deleted no new order
  EXPECT_EQ(violated(), std::vector<int>{11});
}

TEST_F(TpccConsistency, Condition12BalanceAndPaymentsAgainstDeliveries) {
  at<Customer>(layout_->customer(8, 17)).c_ytd_payment += 1;
  EXPECT_EQ(violated(), std::vector<int>{12});
}

// A payment made in one warehouse for a customer of another: its history row
// lies in the first, the customer in the second; condition 10 holds only
// when the first warehouse's payments reach the second's check.
TEST_F(TpccConsistency, RemotePaymentsReachTheCustomersWarehouse) {
  std::vector<std::byte> second = (*loaded_)[1];
  History& h = spare_history_row();
  h = History{};
  h.h_c_id = 5;
  h.h_c_d_id = 3;
  h.h_c_w_id = kW + 1;
  h.h_d_id = 1;
  h.h_w_id = kW;
  h.h_amount = 1234;
  at<Warehouse>(layout_->warehouse()).w_ytd += 1234;
  at<District>(layout_->district(1)).d_ytd += 1234;
  Customer& customer = *reinterpret_cast<Customer*>(second.data() + layout_->customer(3, 5));
  customer.c_balance -= 1234;
  customer.c_ytd_payment += 1234;

  // check_consistency over both needs warehouse numbers 1 and 2: check them one by one, as lock agents do.
  const auto remote = payments_to_other_warehouses(data_.data(), *layout_, kW);
  ASSERT_EQ(remote.size(), 1u);
  std::vector<std::uint64_t> words;
  append_encoded(remote[0], words);
  const auto exchanged = decode_payments(words);
  ASSERT_EQ(exchanged.size(), 1u);
  EXPECT_EQ(exchanged[0].w, kW + 1);
  EXPECT_EQ(exchanged[0].d, 3);
  EXPECT_EQ(exchanged[0].c, 5);
  EXPECT_EQ(exchanged[0].amount, 1234);
  for (const ConditionResult& c : check_consistency(second.data(), *layout_, kW + 1, exchanged)) {
    EXPECT_EQ(c.violations, 0u) << c.name << ": " << c.first_violation;
  }
  for (const ConditionResult& c : check_consistency(data_.data(), *layout_, kW, {})) {
    EXPECT_EQ(c.violations, 0u) << c.name << ": " << c.first_violation;
  }
  const auto without = check_consistency(second.data(), *layout_, kW + 1, {});
  EXPECT_EQ(without[9].violations, 1u) << "condition 10 misses the remote payment";
  EXPECT_EQ(without[11].violations, 0u);
  words.pop_back();
  EXPECT_ANY_THROW(decode_payments(words));
}

}  // namespace
}  // namespace hpcdb::tpcc
