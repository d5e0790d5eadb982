// The shared scan against a plain evaluation of every query on every row:
// random tables and random conjunctions (ranges and sets, selective and not,
// impossible ones), several engines, bitsets of one and several words.
#include "hpcdb/storage/shared_scan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "storage/collecting_channel.hpp"

namespace hpcdb {
namespace {

TableSchema test_schema() {
  return {"t", {{"a", ColumnType::i32, 0}, {"b", ColumnType::u8, 0}, {"c", ColumnType::u16, 0}, {"d", ColumnType::i64, 0},
                {"name", ColumnType::text, 6}}};
}

ColumnTable random_table(std::size_t rows, std::mt19937_64& rng) {
  ColumnTable t(test_schema());
  t.add_rows(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    t.set_value(r, 0, static_cast<std::int64_t>(rng() % 2000) - 500);
    t.set_value(r, 1, static_cast<std::int64_t>(rng() % 11));
    t.set_value(r, 2, static_cast<std::int64_t>(rng() % 300));
    t.set_value(r, 3, static_cast<std::int64_t>(rng() % 100000));
    t.set_text(r, 4, std::string(1 + rng() % 5, static_cast<char>('a' + rng() % 26)));
  }
  return t;
}

Predicate random_predicate(std::mt19937_64& rng) {
  const auto column = static_cast<std::uint16_t>(rng() % 4);
  const std::int64_t span[] = {2000, 11, 300, 100000};
  const std::int64_t low[] = {-500, 0, 0, 0};
  const std::int64_t a = low[column] + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(span[column]));
  const std::int64_t w = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(span[column] / (1 + rng() % 20) + 1));
  switch (rng() % 4) {
    case 0: return Predicate::between(column, a, a + w);
    case 1: return Predicate::equals(column, a);
    case 2: {
      std::vector<std::int64_t> values;
      for (int i = 0, n = static_cast<int>(1 + rng() % 40); i < n; ++i) values.push_back(a + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(w + 1)));
      return Predicate::in(column, values);
    }
    default: return rng() % 8 == 0 ? Predicate::none(column) : Predicate::between(column, a - w, a + w);
  }
}

StorageQuery random_query(QueryId id, std::mt19937_64& rng) {
  StorageQuery q;
  q.id = id;
  for (int i = 0, n = static_cast<int>(rng() % 4); i < n; ++i) q.predicates.push_back(random_predicate(rng));
  for (std::uint16_t c = 0; c < 5; ++c) {
    if (rng() % 2 == 0) q.projection.push_back(c);
  }
  return q;
}

bool passes(const ColumnTable& t, std::size_t row, const StorageQuery& q) {
  for (const Predicate& p : q.predicates) {
    if (!p.matches(t.value(row, p.column))) return false;
  }
  return true;
}

// Per engine: every tuple written as (bitset words, record bytes).
using Tuples = std::vector<std::pair<std::vector<std::uint64_t>, std::vector<std::byte>>>;

void run_case(std::size_t rows, const std::vector<std::size_t>& queries_per_engine, std::uint64_t seed,
              ResultLayout layout, std::size_t piece_bytes, Evaluation evaluation = Evaluation::automatic,
              bool clustered = false) {
  std::mt19937_64 rng(seed);
  ColumnTable table = random_table(rows, rng);
  if (clustered) table.cluster_by(0);
  const std::vector<ColumnStats> ranges = column_stats(table);
  std::vector<std::vector<StorageQuery>> queries(queries_per_engine.size());
  QueryId next = 1;
  std::vector<EngineShare> shares;
  for (std::size_t e = 0; e < queries_per_engine.size(); ++e) {
    for (std::size_t i = 0; i < queries_per_engine[e]; ++i) queries[e].push_back(random_query(next++, rng));
  }
  for (std::size_t e = 0; e < queries.size(); ++e) {
    EngineShare s;
    s.engine = static_cast<std::uint32_t>(e);
    for (const StorageQuery& q : queries[e]) s.queries.push_back(&q);
    shares.push_back(std::move(s));
  }
  std::vector<PositionedQuery> positioned;
  const std::size_t words = assign_positions(table.schema(), shares, positioned);
  const ScanPlan plan(table, ranges, positioned, words, evaluation);
  if (evaluation != Evaluation::automatic) {
    EXPECT_EQ(plan.evaluation(), evaluation);
  }
  const ZoneMap zones(table);

  std::vector<testing::CollectingChannel> channels(shares.size());
  std::vector<std::unique_ptr<ResultStream>> streams;
  std::vector<std::unique_ptr<ResultWriter>> writers;
  std::vector<ResultWriter*> raw;
  for (std::size_t e = 0; e < shares.size(); ++e) {
    streams.push_back(std::make_unique<ResultStream>(channels[e], Priority::best_effort));
    streams.back()->send_start(StartBatch{0, 0, 1, static_cast<std::uint32_t>(e), {1}, {}, layout, shares[e].record});
    writers.push_back(std::make_unique<ResultWriter>(*streams.back(), 0, 0, 1, shares[e].record, layout, piece_bytes));
    raw.push_back(writers.back().get());
  }
  // Two calls taking zones from one counter, as two workers would.
  TaskCounter zones_left(zones.zones());
  ScanCounts counts = shared_scan(table, zones, plan, shares, raw, zones_left);
  counts += shared_scan(table, zones, plan, shares, raw, zones_left);
  for (auto* w : raw) w->flush(true);
  EXPECT_EQ(counts.rows + counts.rows_skipped, rows);
  EXPECT_EQ(counts.zones, zones.zones());

  std::uint64_t emitted = 0;
  for (std::size_t e = 0; e < shares.size(); ++e) {
    const RecordLayout& record = shares[e].record;
    Tuples expected;
    for (std::size_t r = 0; r < rows; ++r) {
      std::vector<std::uint64_t> bits(shares[e].words, 0);
      for (std::size_t i = 0; i < queries[e].size(); ++i) {
        if (passes(table, r, queries[e][i])) bits[i / 64] |= std::uint64_t{1} << (i % 64);
      }
      if (std::all_of(bits.begin(), bits.end(), [](std::uint64_t w) { return w == 0; })) continue;
      std::vector<std::byte> rec(record.record_bytes);
      for (std::size_t c = 0; c < record.columns.size(); ++c) {
        std::memcpy(rec.data() + record.offsets[c], table.data(record.columns[c]) + r * record.widths[c], record.widths[c]);
      }
      expected.emplace_back(bits, rec);
    }
    Tuples got;
    const auto& messages = channels[e].messages;
    ASSERT_FALSE(messages.empty());
    EXPECT_EQ(messages.front().kind(), BatchMessage::start_batch);
    for (std::size_t m = 1; m < messages.size(); ++m) {
      const ResultPieceHeader h = messages[m].header();
      EXPECT_EQ(h.sequence, m);
      EXPECT_EQ(h.last != 0, m + 1 == messages.size());
      EXPECT_LE(messages[m].bytes.size(), std::max<std::size_t>(piece_bytes, sizeof(ResultPieceHeader) + record.tuple_bytes() + sizeof(TupleEntry)));
      const ResultPieceView view(messages[m].bytes);
      for (std::size_t t = 0; t < view.tuples(); ++t) {
        std::vector<std::uint64_t> bits(shares[e].words);
        std::memcpy(bits.data(), view.bitset(t), bits.size() * 8);
        const std::byte* rec = view.record(t, record.bitset_bytes);
        got.emplace_back(bits, std::vector<std::byte>(rec, rec + record.record_bytes));
      }
    }
    ASSERT_EQ(got.size(), expected.size()) << "engine " << e;
    // Zones are taken in order here (one thread), so rows come in table order.
    EXPECT_TRUE(got == expected) << "engine " << e;
    emitted += got.size();
  }
  EXPECT_EQ(counts.emitted, emitted);
}

TEST(SharedScan, MatchesPlainEvaluationOneEngine) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) run_case(5000, {20}, seed, ResultLayout::tuple_free, 4096);
}

// Both ways of evaluating predicates, over several zones (some of them
// skipped when the table is clustered by a column the predicates read).
TEST(SharedScan, PerQueryAndIndexedEvaluationAgree) {
  for (const Evaluation e : {Evaluation::per_query, Evaluation::indexed}) {
    for (std::uint64_t seed = 41; seed <= 43; ++seed) {
      run_case(3 * ZoneMap::kZoneRows + 777, {1}, seed, ResultLayout::tuple_free, 1 << 16, e);
      run_case(2 * ZoneMap::kZoneRows + 5, {9, 70}, seed, ResultLayout::tuple_free, 1 << 16, e);
      run_case(4 * ZoneMap::kZoneRows + 100, {3, 2}, seed, ResultLayout::general, 1 << 15, e, true);
    }
  }
}

TEST(SharedScan, MatchesPlainEvaluationSeveralEnginesAndWords) {
  run_case(3000, {70, 3, 130}, 11, ResultLayout::tuple_free, 1 << 16);
  run_case(3000, {1, 64, 65}, 12, ResultLayout::general, 2048);
}

TEST(SharedScan, OneTuplePerPieceAndTinyTables) {
  run_case(50, {5, 5}, 21, ResultLayout::general, 1);
  run_case(1, {3}, 22, ResultLayout::tuple_free, 1);
  run_case(0, {3}, 23, ResultLayout::tuple_free, 4096);
}

TEST(SharedScan, EngineWithoutQueriesGetsStartAndEnd) {
  run_case(1000, {0, 4}, 31, ResultLayout::tuple_free, 4096);
}

TEST(PredicateIndex, IndexesEveryPredicateAndPrunesImpossibleOnes) {
  std::mt19937_64 rng(5);
  const ColumnTable table = random_table(1000, rng);
  const std::vector<ColumnStats> ranges = column_stats(table);
  StorageQuery both, none, nothing, beyond, twice;
  both.predicates = {Predicate::between(0, 0, 1000), Predicate::equals(1, 3)};
  nothing.predicates = {Predicate::none(2)};
  beyond.predicates = {Predicate::between(1, 50, 60)};  // outside the column's values
  twice.predicates = {Predicate::between(1, 2, 8), Predicate::between(1, 5, 20)};  // two on one column: 5..8
  const std::vector<PositionedQuery> queries = {{&both, 0}, {&none, 1}, {&nothing, 2}, {&beyond, 3}, {&twice, 4}};
  const PredicateIndex index(table, ranges, queries, 1);
  EXPECT_EQ(index.stats().columns, 2u);
  EXPECT_EQ(index.stats().indexed, 4u);
  EXPECT_EQ(index.stats().pruned, 2u);
  EXPECT_EQ(index.stats().residual_predicates, 0u);
  std::vector<std::uint64_t> masks(1000);
  index.candidates(0, 1000, masks.data());
  for (std::size_t r = 0; r < 1000; ++r) {
    const std::int64_t a = table.value(r, 0);
    const std::int64_t b = table.value(r, 1);
    EXPECT_EQ((masks[r] & 1) != 0, a >= 0 && a <= 1000 && b == 3);  // exact: both predicates
    EXPECT_TRUE(masks[r] & 2);                                      // the query without predicates
    EXPECT_FALSE(masks[r] & 12);                                    // pruned ones never
    EXPECT_EQ((masks[r] & 16) != 0, b >= 5 && b <= 8);
  }
}

// Many queries on a wide column (as semi-join filters on a foreign key): its
// table is held as codes into its distinct bitsets, of 1 byte when the
// queries share few key sets and of 2 when they do not.
TEST(PredicateIndex, WideTablesOfManyQueriesAreCoded) {
  std::mt19937_64 rng(7);
  const ColumnTable table = random_table(20000, rng);
  const std::vector<ColumnStats> ranges = column_stats(table);
  for (const std::size_t key_sets : {std::size_t{3}, std::size_t{40}}) {
    std::vector<std::vector<std::int64_t>> sets(key_sets);
    for (auto& set : sets) {
      for (int i = 0; i < 3000; ++i) set.push_back(static_cast<std::int64_t>(rng() % 100000));
    }
    std::vector<StorageQuery> queries(40);
    std::vector<PositionedQuery> positioned;
    for (std::size_t q = 0; q < queries.size(); ++q) {
      queries[q].predicates = {Predicate::in(3, sets[q % key_sets])};
      if (q % 5 == 0) queries[q].predicates.push_back(Predicate::between(1, 2, 6));
      positioned.push_back({&queries[q], q});
    }
    StorageQuery unconstrained;
    positioned.push_back({&unconstrained, queries.size()});
    const PredicateIndex index(table, ranges, positioned, 1);
    EXPECT_EQ(index.stats().coded, 1u);
    // 1 or 2 bytes for each of the column's 100,000 values (with a few KiB
    // of patterns and the other column's table); uncoded it would be 800,000.
    if (key_sets == 3) {
      EXPECT_LT(index.stats().table_bytes, 150000u);
    } else {
      EXPECT_GT(index.stats().table_bytes, 150000u);
      EXPECT_LT(index.stats().table_bytes, 300000u);
    }
    std::vector<std::uint64_t> masks(table.rows());
    index.candidates(0, table.rows(), masks.data());
    for (std::size_t r = 0; r < table.rows(); ++r) {
      std::uint64_t expected = std::uint64_t{1} << queries.size();
      for (std::size_t q = 0; q < queries.size(); ++q) {
        if (passes(table, r, queries[q])) expected |= std::uint64_t{1} << q;
      }
      ASSERT_EQ(masks[r], expected) << "row " << r << ", " << key_sets << " key sets";
    }
  }
}

// A predicate on a column whose range is too wide for a value table is
// checked as a residual on the rows the tables leave.
TEST(PredicateIndex, WideColumnsAreResiduals) {
  ColumnTable t({"w", {{"wide", ColumnType::i64, 0}, {"small", ColumnType::u8, 0}}});
  t.add_rows(3000);
  std::mt19937_64 rng(8);
  for (std::size_t r = 0; r < 3000; ++r) {
    t.set_value(r, 0, static_cast<std::int64_t>(rng() % 1000) << 40);
    t.set_value(r, 1, static_cast<std::int64_t>(r % 10));
  }
  const std::vector<ColumnStats> stats = column_stats(t);
  StorageQuery q;
  q.predicates = {Predicate::between(0, 0, std::int64_t{500} << 40), Predicate::between(1, 0, 4)};
  const std::vector<PositionedQuery> queries = {{&q, 0}};
  const PredicateIndex index(t, stats, queries, 1);
  EXPECT_EQ(index.stats().residual_predicates, 1u);
  EXPECT_EQ(index.stats().indexed, 1u);
  std::vector<std::uint64_t> masks(1024);
  PredicateIndex::Scratch scratch;
  for (std::size_t first = 0; first < 3000; first += 1024) {
    const std::size_t rows = std::min<std::size_t>(1024, 3000 - first);
    index.candidates(first, rows, masks.data());
    index.check_residuals(first, rows, masks.data(), scratch);
    for (std::size_t r = 0; r < rows; ++r) {
      const bool expected = t.value(first + r, 0) <= (std::int64_t{500} << 40) && t.value(first + r, 1) <= 4;
      EXPECT_EQ(masks[r] == 1, expected) << "row " << first + r;
    }
  }
}

TEST(PredicateIndex, RejectsPredicatesOnTextOrMissingColumns) {
  std::mt19937_64 rng(5);
  const ColumnTable table = random_table(10, rng);
  const std::vector<ColumnStats> ranges = column_stats(table);
  StorageQuery text, missing;
  text.predicates = {Predicate::equals(4, 1)};
  missing.predicates = {Predicate::equals(9, 1)};
  const std::vector<PositionedQuery> a = {{&text, 0}};
  const std::vector<PositionedQuery> b = {{&missing, 0}};
  EXPECT_THROW(PredicateIndex(table, ranges, a, 1), Error);
  EXPECT_THROW(PredicateIndex(table, ranges, b, 1), Error);
}

}  // namespace
}  // namespace hpcdb

namespace hpcdb {
namespace {

TEST(ColumnStats, MayPassLooksAtTheSetsMembersInTheRange) {
  const std::int64_t members[] = {5, 200, 1000};
  const Predicate p = Predicate::in(0, members);
  EXPECT_TRUE(may_pass(p, {0, 10}));
  EXPECT_FALSE(may_pass(p, {6, 199}));
  EXPECT_TRUE(may_pass(p, {200, 200}));
  EXPECT_FALSE(may_pass(p, {1001, 5000}));
  EXPECT_FALSE(may_pass(p, {}));
  EXPECT_TRUE(may_pass(Predicate::between(0, -5, 5), {5, 9}));
}

}  // namespace
}  // namespace hpcdb
