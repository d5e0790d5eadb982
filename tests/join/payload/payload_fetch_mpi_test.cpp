// Payload splitting: every result pair gets both tuples' keys and payloads
// from the ranks that hold them, whatever rank the pair ended up on.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "hpcdb/data/payload_column.hpp"
#include "hpcdb/data/workload_generator.hpp"
#include "hpcdb/join/payload/payload_fetch.hpp"
#include "hpcdb/join/sortmerge/sort_merge_join.hpp"
#include "join/join_test_support.hpp"

namespace hpcdb::testing {
namespace {

void expect_rows_of_pairs(const JoinedRows& rows, const std::vector<MatchPair>& pairs, const GlobalInput& input,
                          std::uint64_t seed) {
  ASSERT_EQ(rows.rows(), pairs.size());
  const std::size_t w = rows.payload_width;
  std::vector<std::byte> expected(w);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const std::byte* row = rows.bytes.data() + i * rows.row_bytes();
    std::uint64_t values[4];
    std::memcpy(values, row, sizeof values);
    ASSERT_EQ(values[0], pairs[i].rid_r);
    ASSERT_EQ(values[1], pairs[i].rid_s);
    ASSERT_EQ(values[2], input.inner[pairs[i].rid_r].key);
    ASSERT_EQ(values[3], input.outer[pairs[i].rid_s].key);
    payload_of(seed, RelationSide::inner, pairs[i].rid_r, expected);
    ASSERT_EQ(0, std::memcmp(row + 32, expected.data(), w)) << "row " << i;
    payload_of(seed, RelationSide::outer, pairs[i].rid_s, expected);
    ASSERT_EQ(0, std::memcmp(row + 32 + w, expected.data(), w)) << "row " << i;
  }
}

TEST(PayloadFetch, EveryPairGetsBothTuplesKeysAndPayloads) {
  for (std::size_t width : {std::size_t{1}, std::size_t{13}, std::size_t{64}}) {
    WorkloadSpec spec{3000, 9000, 1.1, 0.8, 21};
    GlobalInput input;
    input.inner.resize(spec.inner_tuples);
    input.outer.resize(spec.outer_tuples);
    generate_inner(spec, 0, spec.inner_tuples, input.inner.data());
    generate_outer(spec, 0, spec.outer_tuples, input.outer.data());
    const Relation inner = slice_for_this_rank(input.inner);
    const Relation outer = slice_for_this_rank(input.outer);
    const PayloadColumn inner_payloads = generate_payloads(inner, 5, RelationSide::inner, width);
    const PayloadColumn outer_payloads = generate_payloads(outer, 5, RelationSide::outer, width);
    SortMergeJoinConfig config;
    config.keep_pairs = true;
    SortMergeJoin join(cluster(), config, inner, outer);
    const JoinResult result = join.run(inner, outer);
    FetchStats stats;
    const JoinedRows rows =
        fetch_payloads(cluster(), result.pairs, {&inner, &inner_payloads}, {&outer, &outer_payloads}, stats);
    expect_rows_of_pairs(rows, result.pairs, input, 5);
    EXPECT_EQ(gather_pairs(result.pairs).size(), serial_join(input).matches);
    if (cluster().size() == 1) {
      EXPECT_EQ(stats.bytes_sent, 0u);
    }
  }
}

TEST(PayloadFetch, EmptyResultAndEmptyRanks) {
  GlobalInput input;
  input.inner = {{1, 0}, {2, 1}};
  input.outer = {{3, 0}};
  const Relation inner = slice_for_this_rank(input.inner);
  const Relation outer = slice_for_this_rank(input.outer);
  const PayloadColumn a = generate_payloads(inner, 1, RelationSide::inner, 8);
  const PayloadColumn b = generate_payloads(outer, 1, RelationSide::outer, 8);
  FetchStats stats;
  const JoinedRows rows = fetch_payloads(cluster(), {}, {&inner, &a}, {&outer, &b}, stats);
  EXPECT_EQ(rows.rows(), 0u);
}

}  // namespace
}  // namespace hpcdb::testing
