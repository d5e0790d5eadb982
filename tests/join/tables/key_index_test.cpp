#include "hpcdb/join/tables/key_index.hpp"

#include <gtest/gtest.h>

#include <arrow/api.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <vector>

namespace hpcdb {
namespace {

RowKeys keys_of(const std::vector<std::int64_t>& values, const std::vector<std::uint8_t>& valid = {}) {
  RowKeys keys;
  for (std::int64_t v : values) keys.keys.push_back(static_cast<std::uint64_t>(v));
  keys.valid = valid.empty() ? std::vector<std::uint8_t>(values.size(), 1) : valid;
  for (std::uint8_t v : keys.valid) keys.nulls += v == 0 ? 1 : 0;
  return keys;
}

std::vector<std::uint32_t> matches(const KeyIndex& index, std::int64_t key) {
  std::vector<std::uint32_t> rows;
  index.for_each_match(static_cast<std::uint64_t>(key), [&](std::uint32_t row) { rows.push_back(row); });
  return rows;
}

// Every probe against a plain multimap of the valid rows.
void expect_like_reference(const KeyIndex& index, const RowKeys& keys, const std::vector<std::int64_t>& probes) {
  std::multimap<std::uint64_t, std::uint32_t> reference;
  for (std::size_t i = 0; i < keys.keys.size(); ++i) {
    if (keys.valid[i]) reference.emplace(keys.keys[i], static_cast<std::uint32_t>(i));
  }
  for (const std::int64_t probe : probes) {
    std::vector<std::uint32_t> want;
    const auto [begin, end] = reference.equal_range(static_cast<std::uint64_t>(probe));
    for (auto it = begin; it != end; ++it) want.push_back(it->second);
    EXPECT_EQ(matches(index, probe), want) << "key " << probe;  // rows in row order
  }
}

TEST(KeyIndex, DenseKeysWithDuplicatesNullsAndProbesOutsideTheirRange) {
  const RowKeys keys = keys_of({-3, 5, 5, 0, 7, -3, 2}, {1, 1, 1, 0, 1, 1, 1});
  const KeyIndex index(keys);
  EXPECT_EQ(index.layout(), KeyIndex::Layout::dense);
  EXPECT_TRUE(index.chained());  // 5 and -3 twice
  EXPECT_EQ(index.slots(), 11u);  // -3 to 7
  expect_like_reference(index, keys, {-4, -3, 0, 2, 5, 6, 7, 8, 1000, INT64_MIN, INT64_MAX});
}

TEST(KeyIndex, UniqueDenseKeysNeedNoChain) {
  std::vector<std::int64_t> values;
  for (std::int64_t k = 1; k <= 4000; k += 4) values.push_back(k);  // TPC-H's order keys are as sparse
  std::reverse(values.begin(), values.end());
  const RowKeys keys = keys_of(values);
  const KeyIndex index(keys);
  EXPECT_EQ(index.layout(), KeyIndex::Layout::dense);
  EXPECT_FALSE(index.chained());
  std::vector<std::int64_t> probes;
  for (std::int64_t k = -2; k <= 4003; ++k) probes.push_back(k);
  expect_like_reference(index, keys, probes);
}

TEST(KeyIndex, SparseKeysAreHashed) {
  std::mt19937_64 random(7);
  std::vector<std::int64_t> values;
  for (int i = 0; i < 5000; ++i) values.push_back(static_cast<std::int64_t>(random() >> (i % 3 == 0 ? 1 : 20)));
  for (int i = 0; i < 300; ++i) values.push_back(values[static_cast<std::size_t>(i) * 7]);  // duplicates
  values.push_back(INT64_MIN);
  values.push_back(INT64_MAX);
  const RowKeys keys = keys_of(values);
  const KeyIndex index(keys);
  EXPECT_EQ(index.layout(), KeyIndex::Layout::hashed);
  EXPECT_GE(index.slots(), 2 * values.size());
  std::vector<std::int64_t> probes(values.begin(), values.begin() + 1000);
  for (int i = 0; i < 1000; ++i) probes.push_back(static_cast<std::int64_t>(random()));
  expect_like_reference(index, keys, probes);
}

TEST(KeyIndex, UniqueAscendingKeysAreRankedInABitmap) {
  std::vector<std::int64_t> values;
  for (std::int64_t k = -70; k <= 4000; k += 4) values.push_back(k);  // TPC-H's order keys are as sparse
  for (std::int64_t k = 4100; k <= 20000; k += 63) values.push_back(k);  // sparser: a key or two a word
  values.push_back(INT64_C(80000));  // 60,000 slots on: 63 slots a row in all (1,272 rows), 64 allowed
  const RowKeys keys = keys_of(values);
  const KeyIndex index(keys);
  EXPECT_EQ(index.layout(), KeyIndex::Layout::ascending);
  EXPECT_FALSE(index.chained());
  EXPECT_EQ(index.slots(), 80071u);
  std::vector<std::int64_t> probes{INT64_MIN, INT64_MAX, -71, 79999, 80000, 80001};
  for (std::int64_t k = -72; k <= 20100; ++k) probes.push_back(k);
  expect_like_reference(index, keys, probes);
}

TEST(KeyIndex, AscendingNeedsUniqueKeysOnEveryRowWithinItsSpan) {
  // A repeated key, a row without a key, a step back and too sparse a span
  // each fall back to the layouts that handle them.
  const RowKeys repeated = keys_of({1, 3, 3, 5});
  const RowKeys keyless = keys_of({1, 3, 4, 5}, {1, 1, 0, 1});
  const RowKeys step_back = keys_of({1, 3, 2, 5});
  std::vector<std::int64_t> sparse;
  for (std::int64_t k = 0; k < 100 * 65 * 30; k += 65 * 30) sparse.push_back(k);  // 1,950 slots a row
  for (const RowKeys& keys : {repeated, keyless, step_back, keys_of(sparse)}) {
    const KeyIndex index(keys);
    EXPECT_NE(index.layout(), KeyIndex::Layout::ascending);
    std::vector<std::int64_t> probes{-1, 0, 1, 2, 3, 4, 5, 6, 1950, 1951};
    expect_like_reference(index, keys, probes);
  }
  EXPECT_EQ(KeyIndex(repeated).layout(), KeyIndex::Layout::dense);
  EXPECT_EQ(KeyIndex(keys_of(sparse)).layout(), KeyIndex::Layout::hashed);
  EXPECT_EQ(KeyIndex(keys_of({INT64_MIN, INT64_MAX})).layout(), KeyIndex::Layout::hashed);  // a span of 2^64
}

// A table of int64 batches (nullopt: null).
DistributedTable batches_of(const std::vector<std::vector<std::optional<std::int64_t>>>& batches) {
  DistributedTable table;
  table.schema = arrow::schema({arrow::field("k", arrow::int64())});
  for (const auto& values : batches) {
    arrow::Int64Builder builder;
    for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
    const auto array = builder.Finish().ValueOrDie();
    table.batches.push_back(arrow::RecordBatch::Make(table.schema, array->length(), {array}));
  }
  return table;
}

TEST(KeyIndex, AscendingIsJudgedAcrossBatchBoundaries) {
  struct Case {
    std::vector<std::vector<std::optional<std::int64_t>>> batches;
    KeyIndex::Layout layout;
  };
  const std::vector<Case> cases{
      {{{1, 3, 5}, {}, {7, 9}}, KeyIndex::Layout::ascending},
      {{{1, 3, 5}, {4, 9}}, KeyIndex::Layout::dense},                   // a step back at the boundary
      {{{1, 3, 5}, {5, 9}}, KeyIndex::Layout::dense},                   // a repeat at the boundary
      {{{1, 3, 5}, {std::nullopt, 9}}, KeyIndex::Layout::dense}};       // a row without a key
  for (const Case& c : cases) {
    const DistributedTable table = batches_of(c.batches);
    const KeyIndex index(table, {0}, KeyEncoding::direct, 64);
    EXPECT_EQ(index.layout(), c.layout);
    expect_like_reference(index, row_keys(table, {0}, KeyEncoding::direct), {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  }
}

TEST(KeyIndex, NoRowsOrNoKeysMatchNothing) {
  const KeyIndex empty(keys_of({}));
  EXPECT_TRUE(matches(empty, 0).empty());
  const KeyIndex all_null(keys_of({1, 2}, {0, 0}));
  EXPECT_TRUE(matches(all_null, 1).empty());
  EXPECT_TRUE(matches(all_null, 2).empty());
}

}  // namespace
}  // namespace hpcdb
