#include "hpcdb/kernels/local_radix_partitioner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "hpcdb/kernels/tuple.hpp"
#include "hpcdb/kernels/tuple_format.hpp"

namespace hpcdb {
namespace {

TEST(SplitRadixBits, FewestPassesEvenlySplit) {
  EXPECT_EQ(split_radix_bits(0, 10), std::vector<unsigned>{});
  EXPECT_EQ(split_radix_bits(3, 10), std::vector<unsigned>{3});
  EXPECT_EQ(split_radix_bits(10, 10), std::vector<unsigned>{10});
  EXPECT_EQ(split_radix_bits(11, 10), (std::vector<unsigned>{6, 5}));
  EXPECT_EQ(split_radix_bits(21, 10), (std::vector<unsigned>{7, 7, 7}));
  EXPECT_EQ(split_radix_bits(22, 10), (std::vector<unsigned>{8, 7, 7}));
  EXPECT_THROW(split_radix_bits(4, 0), Error);
}

std::uint64_t key_of(std::uint64_t v) { return v >> 20; }  // compressed value: key above 20 rid bits
std::uint64_t key_of(const Tuple& t) { return t.key; }
std::uint64_t id_of(std::uint64_t v) { return v; }
std::uint64_t id_of(const Tuple& t) { return t.key * 1000003 + t.rid; }

template <class Stored>
Stored make_item(std::uint64_t key, std::uint64_t rid) {
  if constexpr (sizeof(Stored) == 8) {
    return (key << 20) | (rid & low_mask(20));
  } else {
    return Tuple{key, rid};
  }
}

// The final partition a key belongs to: the first pass's digit most significant.
std::size_t expected_partition(std::uint64_t key, const std::vector<unsigned>& passes) {
  std::size_t index = 0;
  unsigned shift = 0;
  for (unsigned bits : passes) {
    index = (index << bits) | ((key >> shift) & low_mask(bits));
    shift += bits;
  }
  return index;
}

template <class Stored>
void check_partitioning(std::vector<unsigned> passes, std::size_t n, ScatterStores stores, std::uint64_t key_range,
                        std::size_t misalignment, std::uint64_t seed) {
  SCOPED_TRACE(::testing::Message() << "n=" << n << " passes=" << passes.size() << " stores="
                                    << (stores == ScatterStores::direct ? "direct" : "streaming") << " seed=" << seed);
  std::mt19937_64 rng(seed);
  AlignedArray<Stored> memory(n + misalignment + 8);
  Stored* data = memory.data() + misalignment;
  // The input is read only: it may be in another rank's window.
  std::vector<Stored> original(n);
  for (std::size_t i = 0; i < n; ++i) original[i] = data[i] = make_item<Stored>(rng() % key_range, i);
  // Items around the input must stay as they are.
  const Stored guard = make_item<Stored>(0xABCDE, 0x12345);
  for (std::size_t i = 0; i < misalignment; ++i) memory[i] = guard;
  for (std::size_t i = n + misalignment; i < memory.size(); ++i) memory[i] = guard;

  LocalRadixPartitioner<Stored> partitioner(passes, n / 2, stores);  // grows on demand
  std::vector<std::uint64_t> starts;
  const Stored* out = partitioner.partition(data, n, [](const Stored& v) { return key_of(v); }, starts);

  ASSERT_EQ(starts.size(), partitioner.partitions() + 1);
  EXPECT_EQ(starts.front(), 0u);
  EXPECT_EQ(starts.back(), n);
  for (std::size_t i = 0; i + 1 < starts.size(); ++i) {
    ASSERT_LE(starts[i], starts[i + 1]);
    for (std::uint64_t j = starts[i]; j < starts[i + 1]; ++j) {
      ASSERT_EQ(expected_partition(key_of(out[j]), passes), i) << "item " << j;
    }
  }
  std::vector<std::uint64_t> got(n), want(n);
  for (std::size_t i = 0; i < n; ++i) {
    got[i] = id_of(out[i]);
    want[i] = id_of(original[i]);
  }
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(id_of(data[i]), id_of(original[i]));
  for (std::size_t i = 0; i < misalignment; ++i) EXPECT_EQ(id_of(memory[i]), id_of(guard));
  for (std::size_t i = n + misalignment; i < memory.size(); ++i) EXPECT_EQ(id_of(memory[i]), id_of(guard));
}

template <class Stored>
void check_all_shapes() {
  for (ScatterStores stores : {ScatterStores::direct, ScatterStores::streaming}) {
    for (std::size_t n : {0u, 1u, 2u, 7u, 63u, 1000u, 100003u}) {
      check_partitioning<Stored>({3}, n, stores, 1u << 30, 0, n);
      check_partitioning<Stored>({5, 4}, n, stores, 1u << 30, 3, n + 1);
      check_partitioning<Stored>({2, 3, 4}, n, stores, 1u << 30, 5, n + 2);
    }
    // Every key in one partition, and many duplicates.
    check_partitioning<Stored>({4, 4}, 50000, stores, 1, 1, 7);
    check_partitioning<Stored>({6}, 50000, stores, 3, 2, 8);
    // Wide passes: more partitions than items.
    check_partitioning<Stored>({12}, 3000, stores, 1u << 30, 1, 9);
    check_partitioning<Stored>({8, 8}, 20000, stores, 1u << 30, 0, 10);
  }
}

TEST(LocalRadixPartitioner, CompressedItemsEveryShape) { check_all_shapes<std::uint64_t>(); }
TEST(LocalRadixPartitioner, WideItemsEveryShape) { check_all_shapes<Tuple>(); }

TEST(LocalRadixPartitioner, NoPassesLeavesDataInPlace) {
  std::vector<std::uint64_t> data = {5, 3, 9};
  LocalRadixPartitioner<std::uint64_t> partitioner({}, 100, ScatterStores::streaming);
  std::vector<std::uint64_t> starts;
  EXPECT_EQ(partitioner.partition(data.data(), data.size(), [](std::uint64_t v) { return v; }, starts), data.data());
  EXPECT_EQ(starts, (std::vector<std::uint64_t>{0, 3}));
  EXPECT_EQ(partitioner.partitions(), 1u);
}

TEST(LocalRadixPartitioner, LeavesTheInputAsItWas) {
  std::vector<std::uint64_t> data(1000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = i * 7919;
  const std::vector<std::uint64_t> original = data;
  std::vector<std::uint64_t> starts;
  auto identity = [](std::uint64_t v) { return v; };
  for (std::size_t passes = 1; passes <= 3; ++passes) {
    LocalRadixPartitioner<std::uint64_t> partitioner(std::vector<unsigned>(passes, 3), 1000, ScatterStores::streaming);
    EXPECT_NE(partitioner.partition(data.data(), data.size(), identity, starts), data.data());
    EXPECT_EQ(data, original);
  }
}

TEST(LocalRadixPartitioner, UsesTheCallersScratch) {
  AlignedArray<std::uint64_t> scratch(LocalRadixPartitioner<std::uint64_t>::scratch_items(500, 2));
  LocalRadixPartitioner<std::uint64_t> partitioner({3, 3}, scratch.data(), scratch.size(), ScatterStores::direct);
  EXPECT_EQ(partitioner.capacity(), 500u);
  std::vector<std::uint64_t> data(500, 9);
  std::vector<std::uint64_t> starts;
  const std::uint64_t* out = partitioner.partition(data.data(), data.size(), [](std::uint64_t v) { return v; }, starts);
  EXPECT_TRUE(out >= scratch.data() && out < scratch.data() + scratch.size());
  // Key 9: digit 1 of the first pass, 1 of the second: partition 9 of 64.
  EXPECT_EQ(starts[9], 0u);
  EXPECT_EQ(starts[10], 500u);
  EXPECT_EQ(starts.back(), 500u);
}

// The first pass's counts, taken before (as the radix join's histogram phase
// does), give the same partitions as the pass's own counting; counts that do
// not match the input are refused.
TEST(LocalRadixPartitioner, FirstPassCountsGivenBeforehand) {
  auto identity = [](std::uint64_t v) { return v; };
  for (const std::vector<unsigned>& passes : {std::vector<unsigned>{4}, std::vector<unsigned>{5, 3}}) {
    for (std::size_t n : {0u, 1u, 17u, 10000u}) {
      std::mt19937_64 rng(n + passes.size());
      std::vector<std::uint64_t> data(n);
      for (std::uint64_t& v : data) v = rng() % (n % 2 == 0 ? 1000003 : 7);
      std::vector<std::uint64_t> digits(std::size_t{1} << passes.front(), 0);
      for (std::uint64_t v : data) ++digits[v & low_mask(passes.front())];
      LocalRadixPartitioner<std::uint64_t> counting(passes, n, ScatterStores::direct);
      LocalRadixPartitioner<std::uint64_t> counted(passes, n, ScatterStores::direct);
      std::vector<std::uint64_t> starts_counting, starts_counted;
      const std::uint64_t* a = counting.partition(data.data(), n, identity, starts_counting);
      const std::uint64_t* b = counted.partition(data.data(), n, identity, starts_counted, digits.data());
      EXPECT_EQ(starts_counted, starts_counting);
      EXPECT_TRUE(std::equal(a, a + n, b)) << n << " items, " << passes.size() << " passes";
    }
  }
  std::vector<std::uint64_t> data = {1, 2, 2, 3};
  std::vector<std::uint64_t> starts;
  LocalRadixPartitioner<std::uint64_t> direct({2}, 4, ScatterStores::direct);
  const std::vector<std::uint64_t> short_by_one = {0, 1, 1, 1};
  EXPECT_THROW(direct.partition(data.data(), 4, identity, starts, short_by_one.data()), Error);
  const std::vector<std::uint64_t> misplaced = {0, 2, 1, 1};  // adds up, but digit 1 has one item, 2 has two
  EXPECT_THROW(direct.partition(data.data(), 4, identity, starts, misplaced.data()), Error);
  const std::vector<std::uint64_t> exact = {0, 1, 2, 1};
  EXPECT_NO_THROW(direct.partition(data.data(), 4, identity, starts, exact.data()));
  LocalRadixPartitioner<std::uint64_t> streaming({2}, 4, ScatterStores::streaming);
  EXPECT_THROW(streaming.partition(data.data(), 4, identity, starts, exact.data()), Error);
}

TEST(LocalRadixPartitioner, RefusesBadPlans) {
  EXPECT_THROW(LocalRadixPartitioner<std::uint64_t>({0}, 10, ScatterStores::direct), Error);
  EXPECT_THROW(LocalRadixPartitioner<std::uint64_t>({17}, 10, ScatterStores::direct), Error);
  EXPECT_THROW(LocalRadixPartitioner<std::uint64_t>({10, 10, 10}, 10, ScatterStores::direct), Error);
}

TEST(LocalRadixPartitioner, ReservesScratchUpFront) {
  LocalRadixPartitioner<std::uint64_t> partitioner({4}, 4096, ScatterStores::streaming);
  EXPECT_EQ(partitioner.capacity(), 4096u);
  partitioner.reserve(100);
  EXPECT_EQ(partitioner.capacity(), 4096u);
  partitioner.reserve(5000);
  EXPECT_EQ(partitioner.capacity(), 5000u);
}

}  // namespace
}  // namespace hpcdb
