#include "hpcdb/txn/tpcc/tpcc_population.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>


namespace hpcdb::tpcc {
namespace {

std::string text_of(const char* field, std::size_t n) { return std::string(field, strnlen(field, n)); }

// One loaded warehouse (number 3) shared by the tests: loading takes a while.
class TpccPopulation : public ::testing::Test {
 protected:
  static constexpr int kW = 3;
  static void SetUpTestSuite() {
    layout_ = new TpccLayout(100);
    settings_.seed = 42;
    settings_.constants = NurandConstants::from_seed(42);
    settings_.now = 1'700'000'000'000'000;
    data_ = new std::vector<std::byte>(layout_->partition_bytes());
    load_warehouse(data_->data(), *layout_, kW, settings_);
  }
  static void TearDownTestSuite() {
    delete data_;
    delete layout_;
  }
  template <class Row>
  static const Row& at(std::uint64_t offset) {
    return *reinterpret_cast<const Row*>(data_->data() + offset);
  }
  static TpccLayout* layout_;
  static LoadSettings settings_;
  static std::vector<std::byte>* data_;
};
TpccLayout* TpccPopulation::layout_ = nullptr;
LoadSettings TpccPopulation::settings_;
std::vector<std::byte>* TpccPopulation::data_ = nullptr;

TEST(TpccRandom, LastNamesFromSyllables) {
  char name[16];
  last_name(371, name);
  EXPECT_EQ(text_of(name, 16), "PRICALLYOUGHT");
  last_name(0, name);
  EXPECT_EQ(text_of(name, 16), "BARBARBAR");
  last_name(999, name);
  EXPECT_EQ(text_of(name, 16), "EINGEINGEING");
  last_name(777, name);
  EXPECT_EQ(text_of(name, 16), "CALLYCALLYCALLY");  // the longest: 15 characters
}

TEST(TpccRandom, NurandConstantsKeepTheRunDistance) {
  std::set<int> loads;
  for (std::uint64_t seed = 1; seed < 2000; ++seed) {
    const NurandConstants c = NurandConstants::from_seed(seed);
    const int delta = (c.c_last_run - c.c_last_load + 256) % 256;
    EXPECT_GE(delta, 65);
    EXPECT_LE(delta, 119);
    EXPECT_NE(delta, 96);
    EXPECT_NE(delta, 112);
    EXPECT_LE(c.c_id, 1023);
    EXPECT_LE(c.ol_i_id, 8191);
    loads.insert(c.c_last_load);
  }
  EXPECT_GT(loads.size(), 200u);  // spread over [0, 255]
}

TEST(TpccRandom, NurandStaysInRangeAndIsSkewed) {
  SplitMix64 rng(5);
  std::map<int, int> counts;
  for (int i = 0; i < 200000; ++i) {
    const int v = nurand(rng, 255, 0, 999, 123);
    ASSERT_GE(v, 0);
    ASSERT_LE(v, 999);
    ++counts[v];
  }
  int most = 0;
  for (const auto& [v, n] : counts) most = std::max(most, n);
  EXPECT_GT(most, 3 * 200);  // uniform would give about 200 each
}

TEST_F(TpccPopulation, WarehouseAndDistricts) {
  const Warehouse& w = at<Warehouse>(layout_->warehouse());
  EXPECT_EQ(w.w_id, kW);
  EXPECT_EQ(w.w_ytd, 30'000'000);
  EXPECT_GE(w.w_tax, 0);
  EXPECT_LE(w.w_tax, 2000);
  EXPECT_EQ(text_of(w.w_zip, 9).substr(4), "11111");
  for (int d = 1; d <= kDistricts; ++d) {
    const District& r = at<District>(layout_->district(d));
    EXPECT_EQ(r.d_id, d);
    EXPECT_EQ(r.d_w_id, kW);
    EXPECT_EQ(r.d_ytd, 3'000'000);
    EXPECT_EQ(r.d_next_o_id, 3001);
    EXPECT_LE(r.d_tax, 2000);
    const auto& h = at<DistrictAreaHeader>(layout_->area_header(d));
    EXPECT_EQ(h.new_order_head, 2101u);
    EXPECT_EQ(h.new_order_tail, 3001u);
    EXPECT_EQ(h.history_tail, 3000u);
  }
}

TEST_F(TpccPopulation, CustomersAndHistory) {
  int bad_credit = 0;
  for (int d = 1; d <= kDistricts; ++d) {
    for (int c = 1; c <= kCustomers; ++c) {
      const Customer& r = at<Customer>(layout_->customer(d, c));
      ASSERT_EQ(r.c_id, c);
      ASSERT_EQ(r.c_d_id, d);
      ASSERT_EQ(r.c_w_id, kW);
      if (c <= 1000) {
        char expected[16];
        last_name(c - 1, expected);
        ASSERT_EQ(std::memcmp(r.c_last, expected, 16), 0) << c;
      }
      const std::size_t first = strnlen(r.c_first, 16);
      ASSERT_GE(first, 8u);
      ASSERT_LE(strnlen(r.c_data, 500), 500u);
      ASSERT_GE(strnlen(r.c_data, 500), 300u);
      ASSERT_EQ(text_of(r.c_middle, 2), "OE");
      ASSERT_LE(r.c_discount, 5000);
      ASSERT_EQ(r.c_balance, -1000);
      ASSERT_EQ(r.c_ytd_payment, 1000);
      ASSERT_EQ(r.c_payment_cnt, 1);
      ASSERT_EQ(r.c_credit_lim, 5'000'000);
      bad_credit += text_of(r.c_credit, 2) == "BC";
      const History& h = at<History>(layout_->history(d, static_cast<std::uint64_t>(c - 1)));
      ASSERT_EQ(h.h_c_id, c);
      ASSERT_EQ(h.h_amount, 1000);
    }
  }
  EXPECT_NEAR(bad_credit, 3000, 200);  // 10% of 30,000
}

TEST_F(TpccPopulation, OrdersLinesAndNewOrders) {
  for (int d = 1; d <= kDistricts; ++d) {
    std::vector<int> orders_of(kCustomers + 1, 0);
    std::uint64_t lines = 0;
    for (int o = 1; o <= kInitialOrders; ++o) {
      const Order& r = at<Order>(layout_->order(d, static_cast<std::uint64_t>(o)));
      ASSERT_EQ(r.o_id, o);
      ASSERT_GE(r.o_ol_cnt, 5);
      ASSERT_LE(r.o_ol_cnt, 15);
      ASSERT_EQ(r.o_carrier_id == 0, o >= 2101);
      ++orders_of[static_cast<std::size_t>(r.o_c_id)];
      ASSERT_EQ(at<std::uint64_t>(layout_->latest_order(d, r.o_c_id)), static_cast<std::uint64_t>(o));
      const std::uint64_t first = at<std::uint64_t>(layout_->first_line(d, static_cast<std::uint64_t>(o)));
      ASSERT_EQ(first, lines);
      for (int n = 1; n <= r.o_ol_cnt; ++n) {
        const OrderLine& l = at<OrderLine>(layout_->order_line(d, first + static_cast<std::uint64_t>(n - 1)));
        ASSERT_EQ(l.ol_o_id, o);
        ASSERT_EQ(l.ol_number, n);
        ASSERT_EQ(l.ol_supply_w_id, kW);
        ASSERT_EQ(l.ol_quantity, 5);
        ASSERT_EQ(l.ol_delivery_d == 0, o >= 2101);
        ASSERT_EQ(l.ol_amount == 0, o < 2101);
      }
      lines += static_cast<std::uint64_t>(r.o_ol_cnt);
      const NewOrder& n = at<NewOrder>(layout_->new_order(d, static_cast<std::uint64_t>(o)));
      ASSERT_EQ(n.no_o_id, o >= 2101 ? o : 0);
    }
    EXPECT_EQ(at<DistrictAreaHeader>(layout_->area_header(d)).order_line_tail, lines);
    for (int c = 1; c <= kCustomers; ++c) ASSERT_EQ(orders_of[static_cast<std::size_t>(c)], 1) << "a permutation";
    EXPECT_EQ(at<Order>(layout_->order(d, 3001)).o_id, 0);  // the append area is empty beyond
  }
}

TEST_F(TpccPopulation, StockWithTenPercentOriginal) {
  int original = 0;
  for (int i = 1; i <= kItems; ++i) {
    const Stock& s = at<Stock>(layout_->stock(i));
    ASSERT_EQ(s.s_i_id, i);
    ASSERT_GE(s.s_quantity, 10);
    ASSERT_LE(s.s_quantity, 100);
    ASSERT_EQ(strnlen(s.s_dist[9], 24), 24u);
    original += contains_original(s.s_data, 50);
  }
  EXPECT_NEAR(original, 10000, 400);
}

TEST_F(TpccPopulation, NameIndexFindsEveryCustomerInFirstNameOrder) {
  for (int d : {1, 10}) {
    for (int c = 1; c <= kCustomers; ++c) {
      const Customer& r = at<Customer>(layout_->customer(d, c));
      int b = static_cast<int>(last_name_hash(r.c_last) % kNameBuckets);
      while (std::memcmp(at<NameBucket>(layout_->name_bucket(d, b)).c_last, r.c_last, 16) != 0) {
        ASSERT_NE(at<NameBucket>(layout_->name_bucket(d, b)).count, 0u) << "name not found";
        b = (b + 1) % kNameBuckets;
      }
      const NameBucket& bucket = at<NameBucket>(layout_->name_bucket(d, b));
      bool found = false;
      for (std::uint32_t k = bucket.first; k < bucket.first + bucket.count; ++k) {
        const NameEntry& e = at<NameEntry>(layout_->name_entry(d, static_cast<int>(k)));
        found |= e.c_id == c;
        if (k > bucket.first) {
          ASSERT_LE(std::memcmp(at<NameEntry>(layout_->name_entry(d, static_cast<int>(k - 1))).c_first, e.c_first, 16), 0);
        }
        ASSERT_EQ(std::memcmp(at<Customer>(layout_->customer(d, e.c_id)).c_last, r.c_last, 16), 0);
      }
      ASSERT_TRUE(found) << c;
    }
  }
}

TEST_F(TpccPopulation, IsReproducibleAndPerWarehouse) {
  std::vector<std::byte> again(layout_->partition_bytes());
  load_warehouse(again.data(), *layout_, kW, settings_);
  EXPECT_EQ(std::memcmp(again.data(), data_->data(), again.size()), 0);
  load_warehouse(again.data(), *layout_, kW + 1, settings_);
  EXPECT_NE(std::memcmp(at<Stock>(layout_->stock(1)).s_data, reinterpret_cast<const Stock*>(again.data() + layout_->stock(1))->s_data, 50), 0);
}

TEST(TpccItems, PricesAndTenPercentOriginal) {
  LoadSettings settings;
  std::vector<std::byte> replica(TpccLayout(0).replica_bytes());
  load_items(replica.data(), settings);
  int original = 0;
  for (int i = 1; i <= kItems; ++i) {
    const Item& r = *reinterpret_cast<const Item*>(replica.data() + TpccLayout::item(i));
    ASSERT_EQ(r.i_id, i);
    ASSERT_GE(r.i_price, 100);
    ASSERT_LE(r.i_price, 10000);
    ASSERT_GE(r.i_im_id, 1);
    ASSERT_LE(r.i_im_id, 10000);
    ASSERT_GE(strnlen(r.i_name, 24), 14u);
    original += contains_original(r.i_data, 50);
  }
  EXPECT_NEAR(original, 10000, 400);
}

}  // namespace
}  // namespace hpcdb::tpcc
