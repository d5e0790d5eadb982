#include "hpcdb/data/ssb_generator.hpp"

#include <cstdio>

#include "hpcdb/core/error.hpp"
#include "hpcdb/data/counter_rng.hpp"
#include "hpcdb/data/ssb_calendar.hpp"
#include "hpcdb/data/ssb_dictionaries.hpp"

namespace hpcdb::ssb {
namespace {

// One random stream per table, so that tables do not share random values.
enum Stream : std::uint64_t { kCustomerStream = 101, kSupplierStream = 102, kPartStream = 103, kOrderStream = 104 };

class Draw {
 public:
  Draw(std::uint64_t seed, Stream stream, std::int64_t key) : rng_(seed, stream, static_cast<std::uint64_t>(key)) {}
  // Uniform in [low, high].
  std::int64_t between(std::int64_t low, std::int64_t high) {
    __extension__ typedef unsigned __int128 Wide;
    const auto span = static_cast<Wide>(high - low + 1);
    return low + static_cast<std::int64_t>((static_cast<Wide>(rng_.next_u64()) * span) >> 64);
  }
  std::string text(int min_length, int max_length) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    std::string s(static_cast<std::size_t>(between(min_length, max_length)), ' ');
    for (char& c : s) c = kAlphabet[between(0, sizeof(kAlphabet) - 2)];
    return s;
  }

 private:
  CounterRng rng_;
};

std::string numbered_name(const char* prefix, std::int64_t key) {
  char text[32];
  std::snprintf(text, sizeof(text), "%s%09lld", prefix, static_cast<long long>(key));
  return text;
}

std::string phone(Draw& draw, int nation) {
  char text[32];  // 15 characters; room for what the compiler cannot rule out
  std::snprintf(text, sizeof(text), "%02d-%03lld-%03lld-%04lld", 10 + nation, static_cast<long long>(draw.between(100, 999)),
                static_cast<long long>(draw.between(100, 999)), static_cast<long long>(draw.between(1000, 9999)));
  return text;
}

void check_key(std::int64_t key, std::int64_t count, const char* table) {
  if (key < 1 || key > count) {
    throw Error(std::string("SSB ") + table + " key " + std::to_string(key) + " is outside 1.." + std::to_string(count));
  }
}

}  // namespace

CustomerRow Generator::customer(std::int64_t custkey) const {
  check_key(custkey, scale_.customers, "customer");
  Draw draw(seed_, kCustomerStream, custkey);
  CustomerRow r;
  r.custkey = static_cast<std::int32_t>(custkey);
  r.name = numbered_name("Customer#", custkey);
  r.address = draw.text(10, 25);
  r.nation = static_cast<std::uint8_t>(draw.between(0, kNations - 1));
  r.city = static_cast<std::uint8_t>(r.nation * kCitiesPerNation + draw.between(0, kCitiesPerNation - 1));
  r.region = static_cast<std::uint8_t>(region_of_nation(r.nation));
  r.phone = phone(draw, r.nation);
  r.mktsegment = static_cast<std::uint8_t>(draw.between(0, static_cast<std::int64_t>(market_segments().size()) - 1));
  return r;
}

SupplierRow Generator::supplier(std::int64_t suppkey) const {
  check_key(suppkey, scale_.suppliers, "supplier");
  Draw draw(seed_, kSupplierStream, suppkey);
  SupplierRow r;
  r.suppkey = static_cast<std::int32_t>(suppkey);
  r.name = numbered_name("Supplier#", suppkey);
  r.address = draw.text(10, 25);
  r.nation = static_cast<std::uint8_t>(draw.between(0, kNations - 1));
  r.city = static_cast<std::uint8_t>(r.nation * kCitiesPerNation + draw.between(0, kCitiesPerNation - 1));
  r.region = static_cast<std::uint8_t>(region_of_nation(r.nation));
  r.phone = phone(draw, r.nation);
  return r;
}

PartRow Generator::part(std::int64_t partkey) const {
  check_key(partkey, scale_.parts, "part");
  Draw draw(seed_, kPartStream, partkey);
  PartRow r;
  r.partkey = static_cast<std::int32_t>(partkey);
  const auto colors = static_cast<std::int64_t>(part_colors().size());
  const auto first = draw.between(0, colors - 1);
  const auto second = (first + draw.between(1, colors - 1)) % colors;  // a different colour
  r.name = std::string(part_colors()[static_cast<std::size_t>(first)]) + " " +
           std::string(part_colors()[static_cast<std::size_t>(second)]);
  r.mfgr = static_cast<std::uint8_t>(draw.between(0, kManufacturers - 1));
  r.category = static_cast<std::uint8_t>(r.mfgr * kCategoriesPerManufacturer + draw.between(0, kCategoriesPerManufacturer - 1));
  r.brand1 = static_cast<std::uint16_t>(r.category * kBrandsPerCategory + draw.between(0, kBrandsPerCategory - 1));
  r.color = static_cast<std::uint8_t>(draw.between(0, colors - 1));
  r.type = static_cast<std::uint8_t>(draw.between(0, part_types() - 1));
  r.size = static_cast<std::uint8_t>(draw.between(1, 50));
  r.container = static_cast<std::uint8_t>(draw.between(0, static_cast<std::int64_t>(part_containers().size()) - 1));
  return r;
}

std::int32_t Generator::retail_price(std::int64_t partkey) {
  return static_cast<std::int32_t>(90'000 + (partkey / 10) % 20'001 + 100 * (partkey % 1'000));
}

void Generator::order_lines(std::int64_t order_index, std::vector<LineorderRow>& lines) const {
  if (order_index < 0 || order_index >= scale_.orders) {
    throw Error("SSB order " + std::to_string(order_index) + " is outside 0.." + std::to_string(scale_.orders - 1));
  }
  Draw draw(seed_, kOrderStream, order_index);
  const auto line_count = static_cast<int>(draw.between(1, 7));
  // Customers whose key is a multiple of 3 place no orders (TPC-H's rule);
  // the j-th of the others has key j / 2 * 3 + j % 2 + 1.
  const std::int64_t ordering = scale_.customers - scale_.customers / 3;
  const std::int64_t j = draw.between(0, ordering - 1);
  const auto custkey = static_cast<std::int32_t>(j / 2 * 3 + j % 2 + 1);
  const int order_day = static_cast<int>(draw.between(0, kOrderDays - 1));
  const std::int32_t orderdate = datekey_of_day(order_day);
  const auto priority = static_cast<std::uint8_t>(draw.between(0, static_cast<std::int64_t>(order_priorities().size()) - 1));

  const std::size_t first = lines.size();
  std::int64_t total = 0;
  for (int l = 1; l <= line_count; ++l) {
    LineorderRow r;
    r.orderkey = static_cast<std::int32_t>(order_key(order_index));
    r.linenumber = static_cast<std::uint8_t>(l);
    r.custkey = custkey;
    r.partkey = static_cast<std::int32_t>(draw.between(1, scale_.parts));
    r.suppkey = static_cast<std::int32_t>(draw.between(1, scale_.suppliers));
    r.orderdate = orderdate;
    r.orderpriority = priority;
    r.shippriority = 0;
    r.quantity = static_cast<std::uint8_t>(draw.between(1, 50));
    r.discount = static_cast<std::uint8_t>(draw.between(0, 10));
    r.tax = static_cast<std::uint8_t>(draw.between(0, 8));
    const std::int32_t price = retail_price(r.partkey);
    r.extendedprice = r.quantity * price;
    r.revenue = static_cast<std::int32_t>(std::int64_t{r.extendedprice} * (100 - r.discount) / 100);
    r.supplycost = price * 6 / 10;
    r.commitdate = datekey_of_day(order_day + static_cast<int>(draw.between(30, 90)));
    r.shipmode = static_cast<std::uint8_t>(draw.between(0, static_cast<std::int64_t>(ship_modes().size()) - 1));
    total += std::int64_t{r.extendedprice} * (100 - r.discount) * (100 + r.tax) / 10'000;
    lines.push_back(r);
  }
  for (std::size_t i = first; i < lines.size(); ++i) lines[i].ordtotalprice = static_cast<std::int32_t>(total);
}

}  // namespace hpcdb::ssb
