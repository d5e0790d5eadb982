// The cyclo join's phases run alone: the sort phase leaves R_i and the own S
// part encoded and sorted (the part unsorted when parts travel unsorted),
// and joining the visiting parts one by one, sorted or not, gives a hash
// join's matches.
#include "hpcdb/join/cyclo/cyclo_phases.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "join/phase_test_support.hpp"

namespace hpcdb {
namespace {

template <class Format>
bool sorted_by_key(const Format& format, const std::vector<typename Format::Stored>& values) {
  return std::is_sorted(values.begin(), values.end(),
                        [&](const auto& a, const auto& b) { return format.key(a) < format.key(b); });
}

template <class Format>
void check_sort_phase(const Format& format, bool presort) {
  using Stored = typename Format::Stored;
  const PhaseCase c = random_phase_case(3000, 2000, 1000, 21);
  std::vector<Stored> r(c.r.size()), own(c.s.size()), scratch(std::max(c.r.size(), c.s.size()));
  sort_ring_inputs(format, std::span<const Tuple>(c.r), std::span<const Tuple>(c.s), r.data(), own.data(),
                   scratch.data(), presort);
  EXPECT_TRUE(sorted_by_key(format, r));
  if (presort) {
    EXPECT_TRUE(sorted_by_key(format, own));
  } else {
    EXPECT_FALSE(sorted_by_key(format, own)) << "unsorted parts travel as they were";
  }
  std::vector<std::uint64_t> rids;
  for (const Stored& v : own) rids.push_back(format.rid(v));
  std::sort(rids.begin(), rids.end());
  for (std::size_t i = 0; i < rids.size(); ++i) ASSERT_EQ(rids[i], 100000 + i) << "the own part lost or doubled a tuple";
}

TEST(CycloPhases, SortPhaseSortsRAndTheOwnPart) {
  check_sort_phase(WideTupleFormat{}, true);
  check_sort_phase(WideTupleFormat{}, false);
  check_sort_phase(OffsetCompressedFormat{0, 17}, true);
  check_sort_phase(OffsetCompressedFormat{0, 17}, false);
}

template <class Format>
void check_visiting_parts(const Format& format, bool presort) {
  using Stored = typename Format::Stored;
  const PhaseCase c = random_phase_case(4000, 6000, 2500, 22);
  const MatchCollector expected = reference_matches(c);
  std::vector<Stored> r(c.r.size()), scratch(c.s.size() + c.r.size());
  encode_sorted(format, std::span<const Tuple>(c.r), r.data(), scratch.data());
  MatchCollector matches;
  constexpr std::size_t kParts = 3;
  for (std::size_t p = 0; p < kParts; ++p) {  // S cut into the parts that visit this rank
    const std::size_t first = c.s.size() * p / kParts, last = c.s.size() * (p + 1) / kParts;
    std::vector<Stored> part(last - first), copy(last - first);
    encode_into(format, std::span<const Tuple>(c.s.data() + first, last - first), part.data());
    if (presort) sort_by_key(part.data(), part.size(), scratch.data());
    unsigned progress_calls = 0;
    join_visiting_part(format, r.data(), r.size(), part.data(), part.size(), presort, copy.data(), scratch.data(), 500,
                       matches, [&] { ++progress_calls; });
    EXPECT_GT(progress_calls, 0u);
  }
  EXPECT_EQ(matches.count, expected.count);
  EXPECT_EQ(matches.checksum, expected.checksum);
}

TEST(CycloPhases, VisitingPartsJoinLikeAHashJoin) {
  check_visiting_parts(WideTupleFormat{}, true);
  check_visiting_parts(WideTupleFormat{}, false);
  check_visiting_parts(OffsetCompressedFormat{0, 17}, true);
  check_visiting_parts(OffsetCompressedFormat{0, 17}, false);
}

}  // namespace
}  // namespace hpcdb
