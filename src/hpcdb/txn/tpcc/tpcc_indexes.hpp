#pragma once
// The structures that find TPC-C rows besides their dense primary keys
// (warehouse, district, customer, stock and item rows sit at the position
// their key names): per district,
//  - the append tails and the new-order queue: orders, new orders and order
//    lines are appended in o_id order; the new-order queue is the live range
//    [head, tail) of o_ids (Delivery takes the head, New-Order appends);
//  - the order index: per o_id, the slot of the order's first order line;
//  - the latest order of each customer (Order-Status);
//  - the customer last-name index: a hash table on c_last whose buckets point
//    to a run of (c_first, c_id) entries sorted by c_first.
// Every word here changes only under a lock that the writer holds
// exclusively, and is 8-byte aligned so that it can be read without one.
#include <cstdint>
#include <cstring>

namespace hpcdb::tpcc {

struct DistrictAreaHeader {
  std::uint64_t new_order_head;   // oldest undelivered o_id (== tail when there is none)
  std::uint64_t new_order_tail;   // one past the newest o_id in the queue
  std::uint64_t order_line_tail;  // next free order-line slot
  std::uint64_t history_tail;     // next free history slot
};

constexpr int kNameBuckets = 2048;  // per district; at most 1000 distinct last names

struct NameBucket {
  char c_last[16];
  std::uint32_t first;  // position of the first entry
  std::uint32_t count;  // 0: an empty bucket
};

struct NameEntry {
  char c_first[16];
  std::int32_t c_id;
  std::int32_t unused;
};

// FNV-1a over the 16 bytes of a last name (padded with zero bytes).
inline std::uint32_t last_name_hash(const char (&c_last)[16]) {
  std::uint32_t h = 2166136261u;
  for (char ch : c_last) h = (h ^ static_cast<unsigned char>(ch)) * 16777619u;
  return h;
}

}  // namespace hpcdb::tpcc
