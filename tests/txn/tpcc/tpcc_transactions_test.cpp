// The five TPC-C programs run serially against two loaded warehouses in
// memory, each checked against what clause 2 says it must change (computed
// here from the rows before), and against its rollback leaving every byte
// as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>

#include "hpcdb/txn/tpcc/delivery.hpp"
#include "hpcdb/txn/tpcc/new_order.hpp"
#include "hpcdb/txn/tpcc/order_status.hpp"
#include "hpcdb/txn/tpcc/payment.hpp"
#include "hpcdb/txn/tpcc/stock_level.hpp"
#include "hpcdb/txn/tpcc/tpcc_consistency.hpp"
#include "hpcdb/txn/tpcc/tpcc_locks.hpp"
#include "hpcdb/txn/tpcc/tpcc_population.hpp"
#include "txn/local_lock_service.hpp"

namespace hpcdb::tpcc {
namespace {

using hpcdb::testing::LocalLockService;
using hpcdb::testing::MemoryData;

constexpr int kWarehouses = 2;

class TpccTransactions : public ::testing::Test {
 protected:
  // Two warehouses at one lock agent (regions 0, 1; the replica is region 2).
  static void SetUpTestSuite() {
    layout_ = new TpccLayout(200);
    LoadSettings settings;
    settings.seed = 7;
    settings.constants = NurandConstants::from_seed(7);
    settings.now = 1'700'000'000'000'000;
    loaded_ = new MemoryData({layout_->partition_bytes(), layout_->partition_bytes(), layout_->replica_bytes()});
    for (int w = 1; w <= kWarehouses; ++w) load_warehouse(loaded_->region(static_cast<std::uint32_t>(w - 1)), *layout_, w, settings);
    load_items(loaded_->region(2), settings);
  }
  static void TearDownTestSuite() {
    delete loaded_;
    delete layout_;
  }
  void SetUp() override { data_ = std::make_unique<MemoryData>(*loaded_); }

  Transaction transaction(IsolationLevel isolation = IsolationLevel::serializable,
                          TestingFault fault = TestingFault::none) {
    TransactionSettings settings;
    settings.isolation = isolation;
    settings.fault = fault;
    settings.record_history = true;
    return Transaction(locks_, *data_, space_, settings, metrics_);
  }
  template <class Row>
  Row& row(int w, std::uint64_t offset) {
    return *reinterpret_cast<Row*>(data_->region(static_cast<std::uint32_t>(w - 1)) + offset);
  }
  const Item& item(int i) { return *reinterpret_cast<const Item*>(data_->region(2) + TpccLayout::item(i)); }
  void expect_consistent() {
    const std::byte* partitions[kWarehouses] = {data_->region(0), data_->region(1)};
    for (const ConditionResult& c : check_consistency(partitions, *layout_)) {
      EXPECT_EQ(c.violations, 0u) << c.name << ": " << c.first_violation;
    }
  }
  bool unchanged() { return data_->regions == loaded_->regions; }

  static TpccLayout* layout_;
  static MemoryData* loaded_;
  std::unique_ptr<MemoryData> data_;
  LockSpace space_{kWarehouses, {0}};
  LocalLockService locks_;
  TxnMetrics metrics_;
};
TpccLayout* TpccTransactions::layout_ = nullptr;
MemoryData* TpccTransactions::loaded_ = nullptr;

NewOrderInput ten_lines(int w, int d, int c) {
  NewOrderInput in;
  in.w = w;
  in.d = d;
  in.c = c;
  in.ol_cnt = 10;
  for (int n = 0; n < 10; ++n) in.lines[static_cast<std::size_t>(n)] = {100 + 7 * n, w, 1 + n % 10};
  in.entry_d = 42;
  return in;
}

TEST_F(TpccTransactions, NewOrderInsertsTheOrderAndUpdatesStock) {
  NewOrderProgram program(*layout_);
  program.input = ten_lines(1, 3, 17);
  program.input.lines[2].supply_w = 2;  // one remote line
  program.input.all_local = false;
  std::vector<Stock> before;
  for (int n = 0; n < 10; ++n) {
    const auto& l = program.input.lines[static_cast<std::size_t>(n)];
    before.push_back(row<Stock>(l.supply_w, layout_->stock(l.i_id)));
  }
  Transaction txn = transaction();
  txn.begin(1000);
  ASSERT_EQ(program.run(txn), ProgramEnd::commit);
  ASSERT_TRUE(txn.commit());
  EXPECT_EQ(locks_.votes, 0) << "one lock agent: no 2PC";
  EXPECT_EQ(program.output.o_id, 3001);
  EXPECT_EQ(row<District>(1, layout_->district(3)).d_next_o_id, 3002);
  const Order& order = row<Order>(1, layout_->order(3, 3001));
  EXPECT_EQ(order.o_c_id, 17);
  EXPECT_EQ(order.o_ol_cnt, 10);
  EXPECT_EQ(order.o_all_local, 0);
  EXPECT_EQ(order.o_carrier_id, 0);
  EXPECT_EQ(order.version, 1000u);
  EXPECT_EQ(row<NewOrder>(1, layout_->new_order(3, 3001)).no_o_id, 3001);
  EXPECT_EQ(row<std::uint64_t>(1, layout_->latest_order(3, 17)), 3001u);
  const auto& header = row<DistrictAreaHeader>(1, layout_->area_header(3));
  EXPECT_EQ(header.new_order_tail, 3002u);
  const std::uint64_t first = row<std::uint64_t>(1, layout_->first_line(3, 3001));
  EXPECT_EQ(header.order_line_tail, first + 10);
  Money total = 0;
  for (int n = 1; n <= 10; ++n) {
    const auto& in = program.input.lines[static_cast<std::size_t>(n - 1)];
    const OrderLine& line = row<OrderLine>(1, layout_->order_line(3, first + static_cast<std::uint64_t>(n - 1)));
    EXPECT_EQ(line.ol_number, n);
    EXPECT_EQ(line.ol_i_id, in.i_id);
    EXPECT_EQ(line.ol_supply_w_id, in.supply_w);
    EXPECT_EQ(line.ol_amount, in.quantity * item(in.i_id).i_price);
    total += line.ol_amount;
    const Stock& s = row<Stock>(in.supply_w, layout_->stock(in.i_id));
    const Stock& old = before[static_cast<std::size_t>(n - 1)];
    const int expected = old.s_quantity >= in.quantity + 10 ? old.s_quantity - in.quantity : old.s_quantity - in.quantity + 91;
    EXPECT_EQ(s.s_quantity, expected);
    EXPECT_EQ(s.s_ytd, old.s_ytd + in.quantity);
    EXPECT_EQ(s.s_order_cnt, old.s_order_cnt + 1);
    EXPECT_EQ(s.s_remote_cnt, old.s_remote_cnt + (in.supply_w != 1 ? 1 : 0));
    EXPECT_EQ(std::memcmp(line.ol_dist_info, s.s_dist[2], 24), 0);
  }
  const Customer& c = row<Customer>(1, layout_->customer(3, 17));
  const Money taxed = total * (10000 - c.c_discount) / 10000 *
                      (10000 + row<Warehouse>(1, layout_->warehouse()).w_tax + row<District>(1, layout_->district(3)).d_tax) / 10000;
  EXPECT_EQ(program.output.total, taxed);
  expect_consistent();
}

TEST_F(TpccTransactions, NewOrderLocksUnderSerializable) {
  // Serializable, one remote-free order of n distinct items: the ancestors
  // (database once; table and warehouse once per table), S on warehouse,
  // customer, items; X on district, stock, the order, new order, lines and the
  // customer's latest-order entry; an instant X on each index's supremum.
  NewOrderProgram program(*layout_);
  program.input = ten_lines(1, 3, 17);
  Transaction txn = transaction();
  txn.begin(1000);
  program.run(txn);
  const AttemptSummary s = txn.summary();
  // database: IS then its conversion to IX = 2; per table 2 (table, warehouse):
  // 9 tables = 18; keys: warehouse, district, customer, latest entry = 4;
  // per line stock, item, line = 30; order, new order = 2; suprema = 3.
  EXPECT_EQ(s.lock_requests, 2u + 18u + 4u + 30u + 2u + 3u);
  EXPECT_EQ(s.early_releases, 3u);  // the instant supremum locks
  txn.commit();
}

TEST_F(TpccTransactions, NewOrderWithAnUnknownItemLeavesNoTrace) {
  NewOrderProgram program(*layout_);
  program.input = ten_lines(1, 5, 99);
  program.input.lines[9].i_id = kItems + 1;
  Transaction txn = transaction();
  txn.begin(1001);
  ASSERT_EQ(program.run(txn), ProgramEnd::roll_back);
  txn.roll_back();
  EXPECT_TRUE(program.output.rolled_back);
  EXPECT_TRUE(unchanged()) << "every insert and update of the first nine lines was undone";
  EXPECT_EQ(locks_.table.transactions(), 0u) << "all locks released";
}

TEST_F(TpccTransactions, ADeniedLockRollsBackWhatWasWritten) {
  NewOrderProgram program(*layout_);
  program.input = ten_lines(1, 5, 99);
  // Another transaction holds one stock row: New-Order has updated its
  // district by then and must be undone.
  ASSERT_TRUE(locks_.table.request(5, 0, LockSpace::key_lock(kStockTable, 0, 121), LockMode::X, 0)->granted);
  Transaction txn = transaction();
  txn.begin(1002);
  EXPECT_THROW(program.run(txn), AttemptAborted);
  EXPECT_EQ(row<District>(1, layout_->district(5)).d_next_o_id, 3002) << "the district was written before the denial";
  txn.roll_back();
  EXPECT_TRUE(unchanged());
}

TEST_F(TpccTransactions, PaymentByNameTakesTheMiddleCustomer) {
  const int w = 1, d = 2;
  // The customers of one last name, in first-name order.
  char name[16];
  last_name(4, name);
  std::vector<std::pair<std::string, int>> same;
  for (int c = 1; c <= kCustomers; ++c) {
    const Customer& r = row<Customer>(w, layout_->customer(d, c));
    if (std::memcmp(r.c_last, name, 16) == 0) same.emplace_back(std::string(r.c_first, strnlen(r.c_first, 16)), c);
  }
  std::sort(same.begin(), same.end());
  ASSERT_FALSE(same.empty());
  const int expected = same[(same.size() + 1) / 2 - 1].second;
  const Customer before = row<Customer>(w, layout_->customer(d, expected));

  PaymentProgram program(*layout_);
  program.input = {w, d, w, d, true, 0, {}, 12345, 77};
  std::memcpy(program.input.c_last, name, 16);
  Transaction txn = transaction();
  txn.begin(2000);
  ASSERT_EQ(program.run(txn), ProgramEnd::commit);
  txn.commit();
  EXPECT_EQ(program.output.c_id, expected);
  const Customer& after = row<Customer>(w, layout_->customer(d, expected));
  EXPECT_EQ(after.c_balance, before.c_balance - 12345);
  EXPECT_EQ(after.c_ytd_payment, before.c_ytd_payment + 12345);
  EXPECT_EQ(after.c_payment_cnt, before.c_payment_cnt + 1);
  if (std::memcmp(before.c_credit, "BC", 2) == 0) {
    const std::string entry = std::to_string(expected) + " 2 1 2 1 123.45|";
    EXPECT_EQ(std::string(after.c_data, entry.size()), entry);
  } else {
    EXPECT_EQ(std::memcmp(after.c_data, before.c_data, 500), 0);
  }
  EXPECT_EQ(row<Warehouse>(w, layout_->warehouse()).w_ytd, 30'000'000 + 12345);
  EXPECT_EQ(row<District>(w, layout_->district(d)).d_ytd, 3'000'000 + 12345);
  const History& h = row<History>(w, layout_->history(d, 3000));
  EXPECT_EQ(h.h_c_id, expected);
  EXPECT_EQ(h.h_amount, 12345);
  EXPECT_EQ(h.version, 2000u);
  EXPECT_EQ(row<DistrictAreaHeader>(w, layout_->area_header(d)).history_tail, 3001u);
  expect_consistent();
}

TEST_F(TpccTransactions, PaymentOfARemoteCustomerAtAnotherLockAgentVotes) {
  LockSpace two_agents(kWarehouses, {0, 1});
  TransactionSettings settings;
  Transaction txn(locks_, *data_, two_agents, settings, metrics_);
  PaymentProgram program(*layout_);
  program.input = {1, 4, 2, 9, false, 321, {}, 500, 1};
  txn.begin(2001);
  ASSERT_EQ(program.run(txn), ProgramEnd::commit);
  locks_.vote_yes = false;  // the other warehouse's agent votes no
  EXPECT_FALSE(txn.commit());
  EXPECT_EQ(locks_.votes, 1);
  EXPECT_EQ(locks_.last_participants, 2u);
  EXPECT_TRUE(unchanged()) << "a no vote rolls both warehouses back";
}

TEST_F(TpccTransactions, OrderStatusReportsTheLatestOrder) {
  NewOrderProgram new_order(*layout_);
  new_order.input = ten_lines(2, 7, 555);
  Transaction txn = transaction();
  txn.begin(3000);
  new_order.run(txn);
  txn.commit();
  OrderStatusProgram program(*layout_);
  program.input = {2, 7, false, 555, {}};
  txn.begin(3001);
  ASSERT_EQ(program.run(txn), ProgramEnd::commit);
  txn.commit();
  EXPECT_EQ(program.output.o_id, 3001);
  EXPECT_EQ(program.output.lines, 10);
  EXPECT_EQ(program.output.carrier, 0);
  Money amount = 0;
  for (int n = 0; n < 10; ++n) {
    const auto& l = new_order.input.lines[static_cast<std::size_t>(n)];
    amount += l.quantity * item(l.i_id).i_price;
  }
  EXPECT_EQ(program.output.amount, amount);
  EXPECT_EQ(program.output.c_balance, row<Customer>(2, layout_->customer(7, 555)).c_balance);
}

TEST_F(TpccTransactions, DeliveryTakesTheOldestOrderOfEveryDistrict) {
  std::vector<Money> balance(kDistricts + 1), owed(kDistricts + 1);
  std::vector<int> customer(kDistricts + 1);
  for (int d = 1; d <= kDistricts; ++d) {
    const Order& o = row<Order>(1, layout_->order(d, 2101));
    customer[static_cast<std::size_t>(d)] = o.o_c_id;
    balance[static_cast<std::size_t>(d)] = row<Customer>(1, layout_->customer(d, o.o_c_id)).c_balance;
    const std::uint64_t first = row<std::uint64_t>(1, layout_->first_line(d, 2101));
    for (int n = 0; n < o.o_ol_cnt; ++n) {
      owed[static_cast<std::size_t>(d)] += row<OrderLine>(1, layout_->order_line(d, first + static_cast<std::uint64_t>(n))).ol_amount;
    }
  }
  DeliveryProgram program(*layout_);
  program.input = {1, 6, 99};
  Transaction txn = transaction();
  txn.begin(4000);
  ASSERT_EQ(program.run(txn), ProgramEnd::commit);
  txn.commit();
  EXPECT_EQ(program.output.delivered, 10);
  for (int d = 1; d <= kDistricts; ++d) {
    const auto i = static_cast<std::size_t>(d);
    EXPECT_EQ(row<NewOrder>(1, layout_->new_order(d, 2101)).no_o_id, 0);
    EXPECT_EQ(row<DistrictAreaHeader>(1, layout_->area_header(d)).new_order_head, 2102u);
    EXPECT_EQ(row<Order>(1, layout_->order(d, 2101)).o_carrier_id, 6);
    EXPECT_EQ(row<OrderLine>(1, layout_->order_line(d, row<std::uint64_t>(1, layout_->first_line(d, 2101)))).ol_delivery_d, 99);
    const Customer& c = row<Customer>(1, layout_->customer(d, customer[i]));
    EXPECT_EQ(c.c_balance, balance[i] + owed[i]);
    EXPECT_EQ(c.c_delivery_cnt, 1);
  }
  expect_consistent();
}

TEST_F(TpccTransactions, DeliverySkipsAnEmptyDistrictAndLocksItsSupremum) {
  for (int d = 1; d <= kDistricts; ++d) row<DistrictAreaHeader>(1, layout_->area_header(d)).new_order_head = 3001;
  DeliveryProgram program(*layout_);
  program.input = {1, 1, 1};
  Transaction txn = transaction();
  txn.begin(4001);
  program.run(txn);
  EXPECT_EQ(program.output.skipped, 10);
  EXPECT_EQ(txn.held(LockSpace::key_lock(kNewOrderTable, 0, order_supremum(4))), LockMode::S);
  // A New-Order in that district now waits (here: is denied) at the supremum.
  NewOrderProgram new_order(*layout_);
  new_order.input = ten_lines(1, 4, 1);
  Transaction other = transaction();
  other.begin(4002);
  EXPECT_THROW(new_order.run(other), AttemptAborted);
  other.roll_back();
  txn.commit();
}

// Without next-key locks (the testing fault) the same Delivery holds no
// supremum, and a New-Order appends to the queue it found empty: a phantom,
// which its recorded range reads let the history check see.
TEST_F(TpccTransactions, WithoutNextKeyLocksANewOrderAppendsBehindAnEmptyDelivery) {
  for (int d = 1; d <= kDistricts; ++d) row<DistrictAreaHeader>(1, layout_->area_header(d)).new_order_head = 3001;
  DeliveryProgram program(*layout_);
  program.input = {1, 1, 1};
  Transaction txn = transaction(IsolationLevel::serializable, TestingFault::no_next_key_lock);
  txn.begin(4001);
  program.run(txn);
  EXPECT_EQ(program.output.skipped, 10);
  EXPECT_EQ(txn.held(LockSpace::key_lock(kNewOrderTable, 0, order_supremum(4))), LockMode::NL);
  ASSERT_EQ(txn.history().range_reads.size(), 10u);
  EXPECT_EQ(txn.history().range_reads[3].first, LockSpace::key_lock(kNewOrderTable, 0, order_key(4, 1)));
  EXPECT_EQ(txn.history().range_reads[3].last, LockSpace::key_lock(kNewOrderTable, 0, order_supremum(4)));
  NewOrderProgram new_order(*layout_);
  new_order.input = ten_lines(1, 4, 1);
  Transaction other = transaction(IsolationLevel::serializable, TestingFault::no_next_key_lock);
  other.begin(4002);
  EXPECT_EQ(new_order.run(other), ProgramEnd::commit);
  EXPECT_TRUE(other.commit());
  txn.commit();
}

// A Delivery's history: the oldest new order read and deleted, the queue up
// to it read as a range.
TEST_F(TpccTransactions, DeliveryRecordsItsDeletesAndRangeReads) {
  DeliveryProgram program(*layout_);
  program.input = {2, 5, 1};
  Transaction txn = transaction();
  txn.begin(4003);
  ASSERT_EQ(program.run(txn), ProgramEnd::commit);
  const CommittedTxn& h = txn.history();
  ASSERT_EQ(h.range_reads.size(), 10u);
  const LockId oldest = LockSpace::key_lock(kNewOrderTable, 1, order_key(7, kFirstNewOrder));
  EXPECT_EQ(h.range_reads[6].first, LockSpace::key_lock(kNewOrderTable, 1, order_key(7, 1)));
  EXPECT_EQ(h.range_reads[6].last, oldest);
  const auto deleted = std::find_if(h.writes.begin(), h.writes.end(), [&](const RecordWrite& w) { return w.record == oldest; });
  ASSERT_NE(deleted, h.writes.end());
  EXPECT_EQ(deleted->kind, WriteKind::remove);
  EXPECT_TRUE(std::any_of(h.reads.begin(), h.reads.end(), [&](const RecordVersion& r) { return r.record == oldest; }));
  EXPECT_TRUE(txn.commit());
}

TEST_F(TpccTransactions, StockLevelCountsLowStockOfTheLastTwentyOrders) {
  const int w = 2, d = 8, threshold = 60;
  std::set<int> items;
  for (std::uint64_t o = 2981; o <= 3000; ++o) {
    const Order& order = row<Order>(w, layout_->order(d, o));
    const std::uint64_t first = row<std::uint64_t>(w, layout_->first_line(d, o));
    for (int n = 0; n < order.o_ol_cnt; ++n) items.insert(row<OrderLine>(w, layout_->order_line(d, first + static_cast<std::uint64_t>(n))).ol_i_id);
  }
  int low = 0;
  for (int i : items) low += row<Stock>(w, layout_->stock(i)).s_quantity < threshold;
  StockLevelProgram program(*layout_);
  program.input = {w, d, threshold};
  for (IsolationLevel level : {IsolationLevel::serializable, IsolationLevel::read_committed}) {
    Transaction txn = transaction(level);
    txn.begin(level == IsolationLevel::serializable ? 5000 : 5001);
    ASSERT_EQ(program.run(txn), ProgramEnd::commit);
    EXPECT_EQ(program.output.low_stock, low);
    const bool serializable = level == IsolationLevel::serializable;
    EXPECT_EQ(txn.held(LockSpace::key_lock(kOrderLineTable, 1, order_line_supremum(d))), serializable ? LockMode::S : LockMode::NL);
    // Read committed keeps no record read lock: every one was released at once.
    const AttemptSummary& s = txn.summary();
    if (!serializable) {
      EXPECT_EQ(s.early_releases, static_cast<std::uint64_t>(program.output.lines) + items.size() + 1);
    }
    txn.commit();
  }
}

}  // namespace
}  // namespace hpcdb::tpcc
