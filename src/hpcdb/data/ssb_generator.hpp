#pragma once
// The SSB data generator. Every row is a function of (seed, table, key) only
// (counter-based random numbers), so any rank or thread can generate any
// part of any table, and the same options always give the same data: the
// storage engine, the CSV files and therefore DuckDB see identical rows.
//
// Value rules (SSB revision 3, inherited from TPC-H where SSB does not change
// them): nations uniform over the 25, cities 10 per nation, customers only
// place orders if their key is not a multiple of 3, orders have 1 to 7 lines
// and dates uniform over the first 2,406 days (to 1998-08-02), quantities 1-50, discounts
// 0-10 %, taxes 0-8 %, commit dates 30-90 days after the order, the part's
// retail price 90,000 + (key / 10 mod 20,001) + 100 x (key mod 1,000) cents,
// extended price = quantity x retail price, revenue = extended price x
// (100 - discount) / 100, supply cost = 6/10 of the retail price, order total
// = sum over its lines of extended price x (1 - discount) x (1 + tax).
#include <cstdint>
#include <vector>

#include "hpcdb/data/ssb_rows.hpp"
#include "hpcdb/data/ssb_scale.hpp"

namespace hpcdb::ssb {

class Generator {
 public:
  Generator(const Scale& scale, std::uint64_t seed) : scale_(scale), seed_(seed) {}
  const Scale& scale() const { return scale_; }
  std::uint64_t seed() const { return seed_; }

  CustomerRow customer(std::int64_t custkey) const;  // 1..customers
  SupplierRow supplier(std::int64_t suppkey) const;  // 1..suppliers
  PartRow part(std::int64_t partkey) const;          // 1..parts
  // The lines of order `order_index` (0..orders-1), appended to `lines`.
  void order_lines(std::int64_t order_index, std::vector<LineorderRow>& lines) const;

  static std::int32_t retail_price(std::int64_t partkey);

 private:
  Scale scale_;
  std::uint64_t seed_;
};

}  // namespace hpcdb::ssb
