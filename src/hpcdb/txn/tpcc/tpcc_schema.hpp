#pragma once
// The nine TPC-C tables (TPC-C 5.11, clause 1.3) as fixed-size rows. Every
// row starts with its version: the id of the transaction that wrote it last
// (0: loaded), which the history check follows. Types follow clause 1.3:
// identifiers as 32-bit integers, numeric money as 64-bit cents, rates
// (tax, discount) as 32-bit ten-thousandths, dates as microseconds since the
// epoch (0 is null), texts as fixed character arrays padded with zero bytes.
#include <cstdint>

#include "hpcdb/txn/txn_ids.hpp"

namespace hpcdb::tpcc {

constexpr int kDistricts = 10;            // per warehouse
constexpr int kCustomers = 3000;          // per district
constexpr int kItems = 100000;            // also the stock rows per warehouse
constexpr int kInitialOrders = 3000;      // per district
constexpr int kFirstNewOrder = 2101;      // orders 2101..3000 start undelivered (900 per district)
constexpr int kMinLines = 5;
constexpr int kMaxLines = 15;

using Money = std::int64_t;  // cents
using Rate = std::int32_t;   // ten-thousandths
using Date = std::int64_t;   // microseconds since the epoch; 0 = null

struct Warehouse {
  TxnId version;
  std::int32_t w_id;
  char w_name[10];
  char w_street_1[20];
  char w_street_2[20];
  char w_city[20];
  char w_state[2];
  char w_zip[9];
  Rate w_tax;
  Money w_ytd;
};

struct District {
  TxnId version;
  std::int32_t d_id;
  std::int32_t d_w_id;
  char d_name[10];
  char d_street_1[20];
  char d_street_2[20];
  char d_city[20];
  char d_state[2];
  char d_zip[9];
  Rate d_tax;
  Money d_ytd;
  std::int32_t d_next_o_id;
};

struct Customer {
  TxnId version;
  std::int32_t c_id;
  std::int32_t c_d_id;
  std::int32_t c_w_id;
  char c_first[16];
  char c_middle[2];
  char c_last[16];
  char c_street_1[20];
  char c_street_2[20];
  char c_city[20];
  char c_state[2];
  char c_zip[9];
  char c_phone[16];
  Date c_since;
  char c_credit[2];  // "GC" or "BC"
  Money c_credit_lim;
  Rate c_discount;
  Money c_balance;
  Money c_ytd_payment;
  std::int32_t c_payment_cnt;
  std::int32_t c_delivery_cnt;
  char c_data[500];
};

struct History {
  TxnId version;
  std::int32_t h_c_id;
  std::int32_t h_c_d_id;
  std::int32_t h_c_w_id;
  std::int32_t h_d_id;
  std::int32_t h_w_id;
  Date h_date;
  Money h_amount;
  char h_data[24];
};

struct NewOrder {
  TxnId version;
  std::int32_t no_o_id;  // 0: deleted (delivered), or never inserted
  std::int32_t no_d_id;
  std::int32_t no_w_id;
};

struct Order {
  TxnId version;
  std::int32_t o_id;  // 0: never inserted
  std::int32_t o_d_id;
  std::int32_t o_w_id;
  std::int32_t o_c_id;
  Date o_entry_d;
  std::int32_t o_carrier_id;  // 0: null
  std::int32_t o_ol_cnt;
  std::int32_t o_all_local;
};

struct OrderLine {
  TxnId version;
  std::int32_t ol_o_id;  // 0: never inserted
  std::int32_t ol_d_id;
  std::int32_t ol_w_id;
  std::int32_t ol_number;
  std::int32_t ol_i_id;
  std::int32_t ol_supply_w_id;
  Date ol_delivery_d;  // 0: null
  std::int32_t ol_quantity;
  Money ol_amount;
  char ol_dist_info[24];
};

struct Item {
  TxnId version;
  std::int32_t i_id;
  std::int32_t i_im_id;
  char i_name[24];
  Money i_price;
  char i_data[50];
};

struct Stock {
  TxnId version;
  std::int32_t s_i_id;
  std::int32_t s_w_id;
  std::int32_t s_quantity;
  char s_dist[kDistricts][24];  // s_dist_01 .. s_dist_10
  std::int32_t s_ytd;
  std::int32_t s_order_cnt;
  std::int32_t s_remote_cnt;
  char s_data[50];
};

}  // namespace hpcdb::tpcc
