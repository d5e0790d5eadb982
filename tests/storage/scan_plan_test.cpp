// The pieces of a shared scan's plan against plain evaluation: the SIMD
// range kernel at the edges of every column type, the row lists, zone maps
// (which zones a predicate rules out or passes whole), set predicates that
// are ranges among a column's values, and the choice between evaluating
// query by query and with the predicate index.
#include "hpcdb/storage/scan_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/storage/shared_scan.hpp"

namespace hpcdb {
namespace {

template <class T>
ColumnTable one_column(ColumnType type, const std::vector<T>& values) {
  ColumnTable t({"t", {{"v", type, 0}}});
  t.add_rows(values.size());
  for (std::size_t r = 0; r < values.size(); ++r) t.set_value(r, 0, static_cast<std::int64_t>(values[r]));
  return t;
}

// and_range and keep_passing against Predicate::matches, for bounds inside,
// at and beyond the limits of T.
template <class T>
void check_kernels(ColumnType type, std::uint64_t seed) {
  using L = std::numeric_limits<T>;
  std::mt19937_64 rng(seed);
  std::vector<T> values(1000);
  for (T& v : values) v = static_cast<T>(rng());
  values[0] = L::min();
  values[1] = L::max();
  values[2] = 0;
  const ColumnTable table = one_column(type, values);
  const auto lo = static_cast<std::int64_t>(L::min());
  const auto hi = static_cast<std::int64_t>(L::max());
  const std::int64_t mid = static_cast<std::int64_t>(values[3]);
  std::vector<Predicate> predicates = {Predicate::between(0, lo, hi), Predicate::between(0, mid, mid),
                                       Predicate::between(0, lo, mid), Predicate::between(0, mid, hi),
                                       Predicate::between(0, 1, 0), Predicate::equals(0, lo), Predicate::equals(0, hi)};
  if (lo > std::numeric_limits<std::int64_t>::min()) {
    predicates.push_back(Predicate::between(0, lo - 1000, lo - 1));  // below every value of T
    predicates.push_back(Predicate::between(0, lo - 5, mid));
  }
  if (hi < std::numeric_limits<std::int64_t>::max()) {
    predicates.push_back(Predicate::between(0, hi + 1, hi + 1000));
    predicates.push_back(Predicate::between(0, mid, hi + 5));
  }
  // Sets over the whole type (small types only: a set is a bitmap over its bounds).
  const std::int64_t members[] = {mid, lo, hi, static_cast<std::int64_t>(values[7]), static_cast<std::int64_t>(values[8])};
  if (type == ColumnType::u8 || type == ColumnType::u16) predicates.push_back(Predicate::in(0, members));
  for (const Predicate& p : predicates) {
    const BoundPredicate b{table.data(0), type, &p};
    std::vector<std::uint16_t> list(values.size());
    for (std::size_t i = 0; i < list.size(); ++i) list[i] = static_cast<std::uint16_t>(i);
    const std::size_t first = 5;
    const std::size_t n = keep_passing(b, first, list.data(), values.size() - first);
    std::vector<std::uint8_t> pass(values.size() - first, 1);
    if (p.kind == Predicate::Kind::range) and_range(b, first, pass.size(), pass.data());
    std::size_t expected = 0;
    for (std::size_t i = 0; i + first < values.size(); ++i) {
      const bool matches = p.matches(static_cast<std::int64_t>(values[i + first]));
      if (p.kind == Predicate::Kind::range) {
        EXPECT_EQ(pass[i] != 0, matches) << "value " << +values[i + first];
      }
      if (matches) {
        ASSERT_LT(expected, n);
        EXPECT_EQ(list[expected], i);
        ++expected;
      }
    }
    EXPECT_EQ(n, expected) << "predicate [" << p.low << ", " << p.high << "]";
  }
}

TEST(PredicateKernels, RangesAndSetsAtTheEdgesOfEveryType) {
  check_kernels<std::uint8_t>(ColumnType::u8, 1);
  check_kernels<std::uint16_t>(ColumnType::u16, 2);
  check_kernels<std::int32_t>(ColumnType::i32, 3);
  check_kernels<std::int64_t>(ColumnType::i64, 4);
}

// The row lists made from passing bytes and from a first predicate (sets on
// 4-byte values take 8 values at a time) against plain loops, at lengths
// around the vector widths.
TEST(PredicateKernels, ListsFromBytesAndFromOnePredicate) {
  std::mt19937_64 rng(17);
  for (const std::size_t rows : {0u, 1u, 7u, 8u, 31u, 32u, 33u, 1000u, 1024u}) {
    std::vector<std::uint8_t> pass(rows);
    for (auto& p : pass) p = rng() % 3 == 0 ? 1 : 0;
    std::vector<std::uint16_t> list(rows + kListSlack);
    const std::size_t n = list_passing(pass.data(), rows, list.data());
    std::vector<std::uint16_t> expected;
    for (std::size_t i = 0; i < rows; ++i) {
      if (pass[i] != 0) expected.push_back(static_cast<std::uint16_t>(i));
    }
    ASSERT_EQ(n, expected.size());
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(), list.begin()));

    std::vector<std::int32_t> keys(rows + 3);
    for (auto& k : keys) k = static_cast<std::int32_t>(rng() % 3000) - 1000;
    const ColumnTable table = one_column(ColumnType::i32, keys);
    std::vector<std::int64_t> members;
    for (int i = 0; i < 400; ++i) members.push_back(static_cast<std::int64_t>(rng() % 1500) - 200);
    for (const Predicate& p : {Predicate::in(0, members), Predicate::between(0, -50, 700), Predicate::none(0)}) {
      const BoundPredicate b{table.data(0), ColumnType::i32, &p};
      const std::size_t m = list_passing_one(b, 3, rows, list.data());
      expected.clear();
      for (std::size_t i = 0; i < rows; ++i) {
        if (p.matches(keys[i + 3])) expected.push_back(static_cast<std::uint16_t>(i));
      }
      ASSERT_EQ(m, expected.size()) << rows << " rows";
      EXPECT_TRUE(std::equal(expected.begin(), expected.end(), list.begin()));
    }
  }
}

TEST(PredicateKernels, ListPassingKeepsOrder) {
  const std::uint8_t pass[] = {0, 1, 1, 0, 0, 1, 0, 1};
  std::uint16_t list[8];
  ASSERT_EQ(list_passing(pass, 8, list), 4u);
  EXPECT_EQ(list[0], 1);
  EXPECT_EQ(list[1], 2);
  EXPECT_EQ(list[2], 5);
  EXPECT_EQ(list[3], 7);
  EXPECT_EQ(list_passing(pass, 0, list), 0u);
}

// Values 0, 1, 2, ... in order: zone z holds [z * kZoneRows, (z + 1) * kZoneRows).
ColumnTable ascending(std::size_t rows) {
  std::vector<std::int32_t> v(rows);
  for (std::size_t r = 0; r < rows; ++r) v[r] = static_cast<std::int32_t>(r);
  return one_column(ColumnType::i32, v);
}

TEST(ZoneMap, RangesPerZoneAndVerdicts) {
  constexpr auto Z = static_cast<std::int64_t>(ZoneMap::kZoneRows);
  ColumnTable t = ascending(3 * ZoneMap::kZoneRows + 10);
  ZoneMap zones(t);
  ASSERT_EQ(zones.zones(), 4u);
  EXPECT_EQ(zones.range(1, 0).min, Z);
  EXPECT_EQ(zones.range(1, 0).max, 2 * Z - 1);
  EXPECT_EQ(zones.range(3, 0).max, 3 * Z + 9);
  EXPECT_EQ(zone_verdict(Predicate::between(0, 0, Z - 1), zones.range(0, 0)), ZoneVerdict::all);
  EXPECT_EQ(zone_verdict(Predicate::between(0, 0, Z - 1), zones.range(1, 0)), ZoneVerdict::none);
  EXPECT_EQ(zone_verdict(Predicate::between(0, 5, Z + 5), zones.range(1, 0)), ZoneVerdict::some);
  const std::int64_t members[] = {0, Z - 1};
  EXPECT_EQ(zone_verdict(Predicate::in(0, members), zones.range(0, 0)), ZoneVerdict::some);  // sets: bounds only
  EXPECT_EQ(zone_verdict(Predicate::none(0), zones.range(0, 0)), ZoneVerdict::none);
  zones.widen(5, 0, 10 * Z);  // an update: zone 0 now reaches 10 Z
  EXPECT_EQ(zone_verdict(Predicate::between(0, 9 * Z, 11 * Z), zones.range(0, 0)), ZoneVerdict::some);
  EXPECT_EQ(zone_verdict(Predicate::between(0, 9 * Z, 11 * Z), zones.range(1, 0)), ZoneVerdict::none);
}

TEST(ScanPlan, SkipsZonesThePredicatesRuleOut) {
  constexpr auto Z = static_cast<std::int64_t>(ZoneMap::kZoneRows);
  const ColumnTable t = ascending(5 * ZoneMap::kZoneRows);
  const std::vector<ColumnStats> stats = column_stats(t);
  const ZoneMap zones(t);
  StorageQuery q;
  q.predicates = {Predicate::between(0, 2 * Z + 3, 3 * Z - 1)};  // inside zone 2
  const std::vector<PositionedQuery> queries = {{&q, 0}};
  for (const Evaluation e : {Evaluation::per_query, Evaluation::indexed}) {
    const ScanPlan plan(t, stats, queries, 1, e);
    ZoneQueries zq;
    for (std::size_t z = 0; z < zones.zones(); ++z) {
      plan.zone_queries(zones, z, zq);
      EXPECT_EQ(zq.count, z == 2 ? 1u : 0u) << "zone " << z;
    }
    plan.zone_queries(zones, 2, zq);
    std::vector<std::uint64_t> masks(1024, 0);
    ScanPlan::Scratch scratch;
    plan.evaluate(zq, 2 * ZoneMap::kZoneRows, 1024, masks.data(), scratch);
    for (std::size_t r = 0; r < 1024; ++r) EXPECT_EQ(masks[r], r >= 3 ? 1u : 0u) << "row " << r;
  }
  // A range that holds a whole zone is not evaluated there (per query).
  StorageQuery wide;
  wide.predicates = {Predicate::between(0, Z, 3 * Z - 1)};
  const std::vector<PositionedQuery> one = {{&wide, 0}};
  const ScanPlan plan(t, stats, one, 1, Evaluation::per_query);
  ZoneQueries zq;
  plan.zone_queries(zones, 1, zq);
  ASSERT_EQ(zq.count, 1u);
  EXPECT_TRUE(zq.queries[0].ranges.empty());
  plan.zone_queries(zones, 0, zq);
  EXPECT_EQ(zq.count, 0u);
}

// Dates as yyyymmdd: one year's are a set among the integers (gaps between
// months) but a range among the values the column holds.
TEST(ColumnStats, SetsThatAreRangesAmongTheColumnsValues) {
  std::vector<std::int32_t> dates;
  std::vector<std::int64_t> year;
  for (int y = 1992; y <= 1994; ++y) {
    for (int m = 1; m <= 12; ++m) {
      for (int d = 1; d <= 28; ++d) {
        dates.push_back(y * 10000 + m * 100 + d);
        if (y == 1993) year.push_back(dates.back());
      }
    }
  }
  const ColumnTable t = one_column(ColumnType::i32, dates);
  std::vector<ColumnStats> stats = column_stats(t);
  const Predicate all_1993 = Predicate::in(0, year);
  EXPECT_EQ(all_1993.kind, Predicate::Kind::set);
  EXPECT_TRUE(covers_present_values(all_1993, stats[0]));
  std::vector<std::int64_t> holes = year;
  holes.erase(holes.begin() + 40);
  EXPECT_FALSE(covers_present_values(Predicate::in(0, holes), stats[0]));
  EXPECT_FALSE(covers_present_values(Predicate::between(0, 19930101, 19931231), stats[0]));  // a range already
  // A value that appears inside the set's bounds but is not a member.
  note_values(stats[0], 19930130);
  EXPECT_FALSE(covers_present_values(all_1993, stats[0]));
  // One beyond the range: the bitmap is dropped, the set stays a set.
  note_values(stats[0], 20000101);
  EXPECT_EQ(stats[0].range.max, 20000101);
  EXPECT_TRUE(stats[0].present.empty());
  EXPECT_FALSE(covers_present_values(all_1993, stats[0]));
}

TEST(ScanPlan, ChoosesPerQueryForFewQueriesAndTheIndexForMany) {
  std::mt19937_64 rng(9);
  std::vector<std::uint8_t> v(50000);
  for (auto& x : v) x = static_cast<std::uint8_t>(rng() % 50);
  const ColumnTable t = one_column(ColumnType::u8, v);
  const std::vector<ColumnStats> stats = column_stats(t);
  std::vector<StorageQuery> queries(256);
  std::vector<PositionedQuery> positioned;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    queries[i].predicates = {Predicate::between(0, static_cast<std::int64_t>(i % 50), static_cast<std::int64_t>(i % 50 + 3))};
    positioned.push_back({&queries[i], i});
  }
  const ScanPlan one(t, stats, std::span(positioned).first(1), 1, Evaluation::automatic);
  EXPECT_EQ(one.evaluation(), Evaluation::per_query);
  const ScanPlan many(t, stats, positioned, 4, Evaluation::automatic);
  EXPECT_EQ(many.evaluation(), Evaluation::indexed);
  EXPECT_NE(many.index(), nullptr);
  EXPECT_LT(many.estimated_ns_per_row(Evaluation::indexed), many.estimated_ns_per_row(Evaluation::per_query));
}

TEST(ScanPlan, ParsesItsOption) {
  EXPECT_EQ(parse_evaluation("auto"), Evaluation::automatic);
  EXPECT_EQ(parse_evaluation("per-query"), Evaluation::per_query);
  EXPECT_EQ(parse_evaluation("indexed"), Evaluation::indexed);
  EXPECT_THROW(parse_evaluation("index"), UsageError);
}

}  // namespace
}  // namespace hpcdb
