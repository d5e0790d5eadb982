#pragma once
// One row of each SSB table as the generator makes it: numbers as numbers,
// every string from a fixed vocabulary as its code (ssb_dictionaries.hpp),
// free text (names, addresses, phone numbers) as text. Money is in cents.
#include <cstdint>
#include <string>

namespace hpcdb::ssb {

struct CustomerRow {
  std::int32_t custkey = 0;
  std::string name;     // "Customer#000000001"
  std::string address;  // 10 to 25 random characters
  std::uint8_t city = 0;     // nation * 10 + digit
  std::uint8_t nation = 0;
  std::uint8_t region = 0;
  std::string phone;    // "NN-DDD-DDD-DDDD", NN = 10 + nation
  std::uint8_t mktsegment = 0;
};

struct SupplierRow {
  std::int32_t suppkey = 0;
  std::string name;  // "Supplier#000000001"
  std::string address;
  std::uint8_t city = 0;
  std::uint8_t nation = 0;
  std::uint8_t region = 0;
  std::string phone;
};

struct PartRow {
  std::int32_t partkey = 0;
  std::string name;  // two colours
  std::uint8_t mfgr = 0;       // 0..4: "MFGR#1".."MFGR#5"
  std::uint8_t category = 0;   // 0..24: "MFGR#11".."MFGR#55"
  std::uint16_t brand1 = 0;    // 0..999: "MFGR#111".."MFGR#5540"
  std::uint8_t color = 0;
  std::uint8_t type = 0;       // 0..149
  std::uint8_t size = 0;       // 1..50
  std::uint8_t container = 0;  // 0..39
};

struct LineorderRow {
  std::int32_t orderkey = 0;
  std::uint8_t linenumber = 0;  // 1..7
  std::int32_t custkey = 0;
  std::int32_t partkey = 0;
  std::int32_t suppkey = 0;
  std::int32_t orderdate = 0;   // yyyymmdd
  std::uint8_t orderpriority = 0;
  std::uint8_t shippriority = 0;
  std::uint8_t quantity = 0;    // 1..50
  std::int32_t extendedprice = 0;
  std::int32_t ordtotalprice = 0;
  std::uint8_t discount = 0;    // 0..10 percent
  std::int32_t revenue = 0;
  std::int32_t supplycost = 0;
  std::uint8_t tax = 0;         // 0..8 percent
  std::int32_t commitdate = 0;
  std::uint8_t shipmode = 0;
};

}  // namespace hpcdb::ssb
