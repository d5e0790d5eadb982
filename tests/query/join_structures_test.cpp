// The shared join's dimension tables (direct and hashed slots, pass-through,
// missing keys) and the grouped aggregation's table (growth, keys 0).
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "hpcdb/query/dimension_table.hpp"
#include "hpcdb/query/group_table.hpp"

namespace hpcdb {
namespace {

void fill_and_check(const std::vector<std::int64_t>& keys, bool direct) {
  DimensionTable t(2, 3);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::size_t e = t.entry(keys[i]);
    t.mask(e)[0] |= 1;
    t.mask(e)[1] |= std::uint64_t{1} << (i % 64);
    t.values(e)[0] = static_cast<std::int32_t>(i);
    t.values(e)[2] = -static_cast<std::int32_t>(i);
  }
  EXPECT_EQ(t.entry(keys[0]), 0u);  // an existing key keeps its entry
  t.seal();
  EXPECT_EQ(t.direct(), direct);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::uint64_t* s = t.slot(keys[i]);
    EXPECT_EQ(s[0], 1u);
    EXPECT_EQ(s[1], std::uint64_t{1} << (i % 64));
    EXPECT_EQ(DimensionTable::values_in(s, 2)[0], static_cast<std::int32_t>(i));
    EXPECT_EQ(DimensionTable::values_in(s, 2)[2], -static_cast<std::int32_t>(i));
  }
  for (std::int64_t missing : {keys.front() - 1, std::int64_t{-7}, std::int64_t{1} << 40}) {
    if (std::find(keys.begin(), keys.end(), missing) != keys.end()) continue;
    const std::uint64_t* s = t.slot(missing);
    EXPECT_EQ(s[0] | s[1], 0u);
  }
  std::size_t seen = 0;
  t.for_each_entry([&](std::int64_t, const std::uint64_t* mask) { seen += mask[0]; });
  EXPECT_EQ(seen, keys.size());
}

TEST(DimensionTable, DenseKeysIndexDirectly) {
  std::vector<std::int64_t> keys;
  for (std::int64_t k = 1; k <= 5000; k += 2) keys.push_back(k);
  fill_and_check(keys, true);
}

TEST(DimensionTable, SparseKeysAreHashed) {
  std::vector<std::int64_t> keys;
  std::mt19937_64 rng(1);
  for (int i = 0; i < 3000; ++i) keys.push_back(static_cast<std::int64_t>(rng() % (std::uint64_t{1} << 40)));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  fill_and_check(keys, false);
}

TEST(DimensionTable, EmptyTableFindsNothing) {
  DimensionTable t(1, 0);
  t.pass_through()[0] = 5;
  t.seal();
  EXPECT_EQ(t.slot(3)[0], 0u);
  EXPECT_EQ(t.pass_through_words()[0], 5u);
}

TEST(GroupTable, SumsPerKeyThroughGrowth) {
  GroupTable g;
  std::map<std::uint64_t, std::int64_t> expected;
  std::mt19937_64 rng(2);
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t key = rng() % 5000;
    const auto v = static_cast<std::int64_t>(rng() % 1000) - 500;
    g.add(key, v);
    expected[key] += v;
  }
  g.add(0, 7);
  expected[0] += 7;
  std::map<std::uint64_t, std::int64_t> got;
  g.for_each([&](std::uint64_t k, std::int64_t s) { got[k] = s; });
  EXPECT_EQ(got, expected);
  EXPECT_EQ(g.groups(), expected.size());
  EXPECT_EQ(unpack_group(pack_group(pack_group(0, 0, 1998), 2, 999), 2), 999);
  EXPECT_EQ(unpack_group(pack_group(pack_group(0, 0, 1998), 2, 999), 0), 1998);
}

}  // namespace
}  // namespace hpcdb
