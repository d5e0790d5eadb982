#include "hpcdb/txn/tpcc/tpcc_population.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string_view>
#include <vector>


namespace hpcdb::tpcc {
namespace {

template <class Row>
Row& row_at(std::byte* base, std::uint64_t offset) {
  return *reinterpret_cast<Row*>(base + offset);
}

template <std::size_t N>
void text(SplitMix64& rng, char (&field)[N], int min, int max) {
  alphanumeric(rng, field, static_cast<int>(N), min, max);
}

template <std::size_t N>
void copy_text(char (&field)[N], std::string_view value) {
  std::memset(field, 0, N);
  std::memcpy(field, value.data(), std::min(N, value.size()));
}

template <std::size_t N>
void letters(SplitMix64& rng, char (&field)[N]) {
  for (std::size_t i = 0; i < N; ++i) field[i] = static_cast<char>('A' + uniform(rng, 0, 25));
}

// street 1, street 2, city, state, zip (4.3.3.1)
void address(SplitMix64& rng, char (&street_1)[20], char (&street_2)[20], char (&city)[20], char (&state)[2],
             char (&zip_code)[9]) {
  text(rng, street_1, 10, 20);
  text(rng, street_2, 10, 20);
  text(rng, city, 10, 20);
  letters(rng, state);
  zip(rng, zip_code);
}

template <std::size_t N>
void data_field(SplitMix64& rng, char (&field)[N], int min) {
  const int length = alphanumeric(rng, field, static_cast<int>(N), min, static_cast<int>(N));
  if (uniform(rng, 1, 10) == 1) mark_original(rng, field, length);  // 10% (4.3.3.1)
}

SplitMix64 stream(const LoadSettings& s, std::uint64_t which) { return SplitMix64(s.seed * 0x9E3779B97F4A7C15ull + which); }

void load_stock(std::byte* partition, const TpccLayout& layout, int w, SplitMix64& rng) {
  for (int i = 1; i <= kItems; ++i) {
    Stock& s = row_at<Stock>(partition, layout.stock(i));
    s.s_i_id = i;
    s.s_w_id = w;
    s.s_quantity = static_cast<std::int32_t>(uniform(rng, 10, 100));
    for (auto& dist : s.s_dist) alphanumeric(rng, dist, 24, 24, 24);
    data_field(rng, s.s_data, 26);
  }
}

void load_customers(std::byte* partition, const TpccLayout& layout, int w, int d, SplitMix64& rng,
                    const LoadSettings& settings) {
  for (int c = 1; c <= kCustomers; ++c) {
    Customer& r = row_at<Customer>(partition, layout.customer(d, c));
    r.c_id = c;
    r.c_d_id = d;
    r.c_w_id = w;
    last_name(c <= 1000 ? c - 1 : nurand(rng, 255, 0, 999, settings.constants.c_last_load), r.c_last);
    copy_text(r.c_middle, "OE");
    text(rng, r.c_first, 8, 16);
    address(rng, r.c_street_1, r.c_street_2, r.c_city, r.c_state, r.c_zip);
    numeric(rng, r.c_phone, 16);
    r.c_since = settings.now;
    copy_text(r.c_credit, uniform(rng, 1, 10) == 1 ? "BC" : "GC");
    r.c_credit_lim = 5'000'000;
    r.c_discount = static_cast<Rate>(uniform(rng, 0, 5000));
    r.c_balance = -1000;
    r.c_ytd_payment = 1000;
    r.c_payment_cnt = 1;
    r.c_delivery_cnt = 0;
    text(rng, r.c_data, 300, 500);

    History& h = row_at<History>(partition, layout.history(d, static_cast<std::uint64_t>(c - 1)));
    h.h_c_id = c;
    h.h_c_d_id = h.h_d_id = d;
    h.h_c_w_id = h.h_w_id = w;
    h.h_date = settings.now;
    h.h_amount = 1000;
    text(rng, h.h_data, 12, 24);
  }
}

// Orders for a random permutation of the customers, their lines, the new-order
// queue (2101..3000) and each customer's latest order; returns the lines written.
std::uint64_t load_orders(std::byte* partition, const TpccLayout& layout, int w, int d, SplitMix64& rng,
                          const LoadSettings& settings) {
  std::vector<int> customers(kCustomers);
  std::iota(customers.begin(), customers.end(), 1);
  for (std::size_t i = customers.size() - 1; i > 0; --i) {
    std::swap(customers[i], customers[static_cast<std::size_t>(uniform(rng, 0, static_cast<std::int64_t>(i)))]);
  }
  std::uint64_t line = 0;
  for (int o = 1; o <= kInitialOrders; ++o) {
    const bool delivered = o < kFirstNewOrder;
    Order& r = row_at<Order>(partition, layout.order(d, static_cast<std::uint64_t>(o)));
    r.o_id = o;
    r.o_d_id = d;
    r.o_w_id = w;
    r.o_c_id = customers[static_cast<std::size_t>(o - 1)];
    r.o_entry_d = settings.now;
    r.o_carrier_id = delivered ? static_cast<std::int32_t>(uniform(rng, 1, 10)) : 0;
    r.o_ol_cnt = static_cast<std::int32_t>(uniform(rng, kMinLines, kMaxLines));
    r.o_all_local = 1;
    row_at<std::uint64_t>(partition, layout.first_line(d, static_cast<std::uint64_t>(o))) = line;
    row_at<std::uint64_t>(partition, layout.latest_order(d, r.o_c_id)) = static_cast<std::uint64_t>(o);
    for (int n = 1; n <= r.o_ol_cnt; ++n, ++line) {
      OrderLine& l = row_at<OrderLine>(partition, layout.order_line(d, line));
      l.ol_o_id = o;
      l.ol_d_id = d;
      l.ol_w_id = w;
      l.ol_number = n;
      l.ol_i_id = static_cast<std::int32_t>(uniform(rng, 1, kItems));
      l.ol_supply_w_id = w;
      l.ol_delivery_d = delivered ? settings.now : 0;
      l.ol_quantity = 5;
      l.ol_amount = delivered ? 0 : uniform(rng, 1, 999'999);
      alphanumeric(rng, l.ol_dist_info, 24, 24, 24);
    }
    if (!delivered) {
      NewOrder& n = row_at<NewOrder>(partition, layout.new_order(d, static_cast<std::uint64_t>(o)));
      n.no_o_id = o;
      n.no_d_id = d;
      n.no_w_id = w;
    }
  }
  return line;
}

// The last-name index: entries sorted by (c_last, c_first, c_id), one hash
// bucket per distinct last name pointing at its run of entries.
void build_name_index(std::byte* partition, const TpccLayout& layout, int d) {
  std::vector<const Customer*> sorted;
  for (int c = 1; c <= kCustomers; ++c) sorted.push_back(&row_at<Customer>(partition, layout.customer(d, c)));
  std::sort(sorted.begin(), sorted.end(), [](const Customer* a, const Customer* b) {
    if (const int by_last = std::memcmp(a->c_last, b->c_last, 16); by_last != 0) return by_last < 0;
    if (const int by_first = std::memcmp(a->c_first, b->c_first, 16); by_first != 0) return by_first < 0;
    return a->c_id < b->c_id;
  });
  for (std::size_t k = 0; k < sorted.size();) {
    std::size_t end = k;
    while (end < sorted.size() && std::memcmp(sorted[end]->c_last, sorted[k]->c_last, 16) == 0) {
      NameEntry& e = row_at<NameEntry>(partition, layout.name_entry(d, static_cast<int>(end)));
      std::memcpy(e.c_first, sorted[end]->c_first, 16);
      e.c_id = sorted[end]->c_id;
      ++end;
    }
    int b = static_cast<int>(last_name_hash(sorted[k]->c_last) % kNameBuckets);
    while (row_at<NameBucket>(partition, layout.name_bucket(d, b)).count != 0) b = (b + 1) % kNameBuckets;
    NameBucket& bucket = row_at<NameBucket>(partition, layout.name_bucket(d, b));
    std::memcpy(bucket.c_last, sorted[k]->c_last, 16);
    bucket.first = static_cast<std::uint32_t>(k);
    bucket.count = static_cast<std::uint32_t>(end - k);
    k = end;
  }
}

void load_district(std::byte* partition, const TpccLayout& layout, int w, int d, SplitMix64& rng,
                   const LoadSettings& settings) {
  District& r = row_at<District>(partition, layout.district(d));
  r.d_id = d;
  r.d_w_id = w;
  text(rng, r.d_name, 6, 10);
  address(rng, r.d_street_1, r.d_street_2, r.d_city, r.d_state, r.d_zip);
  r.d_tax = static_cast<Rate>(uniform(rng, 0, 2000));
  r.d_ytd = 3'000'000;
  r.d_next_o_id = kInitialOrders + 1;
  load_customers(partition, layout, w, d, rng, settings);
  const std::uint64_t lines = load_orders(partition, layout, w, d, rng, settings);
  build_name_index(partition, layout, d);
  auto& header = row_at<DistrictAreaHeader>(partition, layout.area_header(d));
  header.new_order_head = kFirstNewOrder;
  header.new_order_tail = kInitialOrders + 1;
  header.order_line_tail = lines;
  header.history_tail = kCustomers;
}

}  // namespace

void load_warehouse(std::byte* partition, const TpccLayout& layout, int w, const LoadSettings& settings) {
  std::memset(static_cast<void*>(partition), 0, layout.partition_bytes());
  SplitMix64 rng = stream(settings, static_cast<std::uint64_t>(w));
  Warehouse& r = row_at<Warehouse>(partition, layout.warehouse());
  r.w_id = w;
  text(rng, r.w_name, 6, 10);
  address(rng, r.w_street_1, r.w_street_2, r.w_city, r.w_state, r.w_zip);
  r.w_tax = static_cast<Rate>(uniform(rng, 0, 2000));
  r.w_ytd = 30'000'000;
  load_stock(partition, layout, w, rng);
  for (int d = 1; d <= kDistricts; ++d) load_district(partition, layout, w, d, rng, settings);
}

void load_items(std::byte* replica, const LoadSettings& settings) {
  std::memset(static_cast<void*>(replica), 0, static_cast<std::size_t>(kItems) * sizeof(Item));
  SplitMix64 rng = stream(settings, 0);  // warehouses are 1-based: stream 0 is the items'
  for (int i = 1; i <= kItems; ++i) {
    Item& r = row_at<Item>(replica, TpccLayout::item(i));
    r.i_id = i;
    r.i_im_id = static_cast<std::int32_t>(uniform(rng, 1, 10000));
    text(rng, r.i_name, 14, 24);
    r.i_price = uniform(rng, 100, 10000);
    data_field(rng, r.i_data, 26);
  }
}

}  // namespace hpcdb::tpcc
