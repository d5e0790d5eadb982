// The sort-merge join's match phase run alone, on plain threads: whatever
// the worker count, its key-range cuts never split a key, so the matches of
// two sorted relations equal a hash join's, also when one key covers most
// of R (a cut falls inside it and must move past it).
#include "hpcdb/join/sortmerge/match_phase.hpp"

#include <gtest/gtest.h>

#include "join/phase_test_support.hpp"
#include "hpcdb/join/sorted_values.hpp"
#include "hpcdb/join/worker_runner.hpp"

namespace hpcdb {
namespace {

template <class Format>
std::vector<typename Format::Stored> encoded_sorted(const Format& format, const std::vector<Tuple>& tuples) {
  std::vector<typename Format::Stored> values(tuples.size()), scratch(tuples.size());
  encode_sorted(format, std::span<const Tuple>(tuples), values.data(), scratch.data());
  return values;
}

template <class Format>
void expect_matches_like_a_hash_join(const Format& format, const PhaseCase& c) {
  const MatchCollector expected = reference_matches(c);
  const auto r = encoded_sorted(format, c.r), s = encoded_sorted(format, c.s);
  for (unsigned threads : {1u, 2u, 3u, 7u}) {
    PlainWorkers workers;
    const MatchCollector got = match_sorted(workers, format, r.data(), r.size(), s.data(), s.size(), threads, true);
    EXPECT_EQ(got.count, expected.count) << threads << " threads";
    EXPECT_EQ(got.checksum, expected.checksum) << threads << " threads";
    EXPECT_EQ(got.pairs.size(), expected.count) << threads << " threads";
  }
}

TEST(MatchPhase, EqualsHashJoinForEveryWorkerCount) {
  const PhaseCase c = random_phase_case(5000, 9000, 3000, 11);
  expect_matches_like_a_hash_join(WideTupleFormat{}, c);
  expect_matches_like_a_hash_join(OffsetCompressedFormat{0, 17}, c);
}

TEST(MatchPhase, OneKeyCoveringMostOfRIsNeverSplit) {
  PhaseCase c = random_phase_case(1000, 1000, 50, 12);
  for (std::size_t i = 0; i < 900; ++i) c.r[i].key = 7;
  expect_matches_like_a_hash_join(WideTupleFormat{}, c);
}

TEST(MatchPhase, EmptySidesMatchNothing) {
  PhaseCase c = random_phase_case(0, 100, 10, 13);
  expect_matches_like_a_hash_join(WideTupleFormat{}, c);
  c = random_phase_case(100, 0, 10, 14);
  expect_matches_like_a_hash_join(WideTupleFormat{}, c);
}

}  // namespace
}  // namespace hpcdb
