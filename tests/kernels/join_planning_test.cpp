// Planning steps of the radix join that need no MPI: assignment, window
// layout, radix bit choice.
#include <gtest/gtest.h>

#include "hpcdb/join/radix/partition_assignment.hpp"
#include "hpcdb/join/radix/radix_plan.hpp"
#include "hpcdb/join/radix/window_layout.hpp"

namespace hpcdb {
namespace {

TEST(PartitionAssignment, RoundRobin) {
  const std::vector<std::uint64_t> r(6, 1), s(6, 1);
  EXPECT_EQ(assign_partitions(r, s, 4, Assignment::round_robin), (std::vector<int>{0, 1, 2, 3, 0, 1}));
}

TEST(PartitionAssignment, SkewAwareKeepsLargestApart) {
  const std::vector<std::uint64_t> r = {0, 0, 0, 0};
  const std::vector<std::uint64_t> s = {100, 90, 10, 5};
  const std::vector<int> owner = assign_partitions(r, s, 2, Assignment::skew_aware);
  EXPECT_NE(owner[0], owner[1]);
  EXPECT_EQ(owner[2], owner[1]);  // the small ones fill the lighter rank
  EXPECT_EQ(owner[3], owner[0]);  // ties go to the lower rank
}

TEST(WindowLayout, PartitionsAreContiguousPerOwner) {
  const std::vector<std::uint64_t> r = {3, 5, 2, 7};
  const std::vector<std::uint64_t> s = {1, 1, 4, 0};
  const std::vector<int> owner = {0, 1, 0, 1};
  const WindowLayout w = plan_windows(r, s, owner, 2, 8);
  EXPECT_EQ(w.inner_base, (std::vector<std::uint64_t>{0, 0, 3, 5}));
  EXPECT_EQ(w.outer_base, (std::vector<std::uint64_t>{0, 0, 1, 1}));
  EXPECT_EQ(w.inner_tuples, (std::vector<std::uint64_t>{5, 12}));
  EXPECT_EQ(w.outer_region_offset, (std::vector<std::uint64_t>{64, 128}));
  EXPECT_EQ(w.window_bytes, (std::vector<std::uint64_t>{64 + 5 * 8, 128 + 8}));
}

TEST(RadixPlan, EnoughPartitionsForEveryWorkerAndCacheSizedPartitions) {
  CpuInfo cpu;
  cpu.l2_bytes = 512 * 1024;
  const RadixBits small = choose_radix_bits(100, 4, 2, 8, cpu, 0, 0);
  EXPECT_GE(1u << small.network, 8u * 4);
  EXPECT_EQ(small.local, 0u);
  const RadixBits large = choose_radix_bits(1ULL << 30, 2, 1, 8, cpu, 0, 0);
  const std::uint64_t per_final = (1ULL << 30) >> (large.network + large.local);
  EXPECT_LE(per_final, cache_resident_build_tuples(8, cpu));
  const RadixBits requested = choose_radix_bits(1ULL << 30, 2, 1, 8, cpu, 9, 5);
  EXPECT_EQ(requested.network, 9u);
  EXPECT_EQ(requested.local, 5u);
}

}  // namespace
}  // namespace hpcdb
