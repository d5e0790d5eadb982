#include "hpcdb/shuffle/batch_partitioner.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/data/row_workload.hpp"
#include "hpcdb/shuffle/row_router.hpp"

namespace hpcdb {
namespace {

// Streams that hand out fresh buffers and keep every shipped batch.
class RecordingStreams {
 public:
  RecordingStreams(int ranks, std::size_t batch_rows, std::size_t row_bytes, std::size_t rows)
      : batch_rows_(batch_rows),
        row_bytes_(row_bytes),
        stride_(((batch_rows + 1) * row_bytes + 63) / 64 * 64),
        pool_((rows / batch_rows + 2 * static_cast<std::size_t>(ranks) + 1) * stride_, Prefault::no),
        open_(static_cast<std::size_t>(ranks)),
        batches_(static_cast<std::size_t>(ranks)),
        lasts_(static_cast<std::size_t>(ranks), 0) {
    std::memset(pool_.data(), 0xAB, pool_.size());
  }

  // A fresh buffer each time; a guard row after it must stay untouched.
  std::byte* open(std::size_t dest) {
    EXPECT_LT((used_ + 1) * stride_, pool_.size() + 1);
    open_[dest] = pool_.data() + used_++ * stride_;
    return open_[dest];
  }

  void ship(std::size_t dest, std::size_t rows, bool last) {
    EXPECT_EQ(lasts_[dest], 0) << "a batch after the last one of stream " << dest;
    EXPECT_TRUE(rows <= batch_rows_);
    if (!last) {
      EXPECT_EQ(rows, batch_rows_) << "only the last batch may be partly filled";
    }
    for (std::size_t b = 0; b < row_bytes_; ++b) EXPECT_EQ(open_[dest][batch_rows_ * row_bytes_ + b], std::byte{0xAB});
    batches_[dest].emplace_back(open_[dest], open_[dest] + rows * row_bytes_);
    if (last) {
      ++lasts_[dest];
    }
  }

  // Rows of `dest` in the order they were shipped.
  std::vector<std::byte> rows_of(std::size_t dest) const {
    std::vector<std::byte> all;
    for (const auto& b : batches_[dest]) all.insert(all.end(), b.begin(), b.end());
    return all;
  }
  std::size_t batches(std::size_t dest) const { return batches_[dest].size(); }
  int lasts(std::size_t dest) const { return lasts_[dest]; }

 private:
  std::size_t batch_rows_;
  std::size_t row_bytes_;
  std::size_t stride_;
  AlignedArray<std::byte> pool_;
  std::size_t used_ = 0;
  std::vector<std::byte*> open_;
  std::vector<std::vector<std::vector<std::byte>>> batches_;
  std::vector<int> lasts_;
};

// The rows of each destination in input order, by the documented rule.
std::vector<std::byte> expected_rows(const std::vector<std::uint64_t>& rows, std::size_t row_bytes, int ranks, int dest) {
  std::vector<std::byte> out;
  const std::size_t words = row_bytes / 8;
  for (std::size_t i = 0; i < rows.size() / words; ++i) {
    __extension__ typedef unsigned __int128 Wide;
    const auto d = static_cast<int>((static_cast<Wide>(rows[i * words] * 0x9E3779B97F4A7C15ULL) * static_cast<unsigned>(ranks)) >> 64);
    if (d != dest) continue;
    const auto* b = reinterpret_cast<const std::byte*>(rows.data() + i * words);
    out.insert(out.end(), b, b + row_bytes);
  }
  return out;
}

template <class Partitioner>
void check(std::size_t row_bytes, int ranks, std::size_t n, std::size_t batch_rows, KeyDistribution keys,
           std::size_t pieces) {
  RowWorkloadSpec spec;
  spec.rows = n;
  spec.row_bytes = static_cast<std::uint32_t>(row_bytes);
  spec.keys = keys;
  std::vector<std::uint64_t> rows(n * row_bytes / 8 + 1);
  generate_rows(spec, 0, n, rows.data());
  rows.resize(n * row_bytes / 8);
  RecordingStreams streams(ranks, batch_rows, row_bytes, n);
  Partitioner partitioner = [&] {
    if constexpr (std::is_constructible_v<Partitioner, int, std::size_t, RecordingStreams&>) {
      return Partitioner(ranks, batch_rows, streams);
    } else if constexpr (std::is_constructible_v<Partitioner, int, std::size_t, RowCopy, RecordingStreams&>) {
      return Partitioner(ranks, batch_rows, RowCopy{row_bytes}, streams);
    } else {
      return Partitioner(ranks, batch_rows, {}, streams);
    }
  }();
  partitioner.start();
  for (std::size_t k = 0; k < pieces; ++k) {  // the input in pieces, as the worker feeds it
    const std::size_t begin = n * k / pieces;
    const std::size_t end = n * (k + 1) / pieces;
    partitioner.push(reinterpret_cast<const std::byte*>(rows.data()) + begin * row_bytes, end - begin);
  }
  partitioner.finish();
  for (int d = 0; d < ranks; ++d) {
    EXPECT_EQ(streams.lasts(static_cast<std::size_t>(d)), 1);
    EXPECT_EQ(streams.rows_of(static_cast<std::size_t>(d)), expected_rows(rows, row_bytes, ranks, d))
        << "width " << row_bytes << ", ranks " << ranks << ", destination " << d;
  }
}

TEST(BatchPartitioners, EveryRowReachesItsDestinationInInputOrder) {
  for (int ranks : {1, 2, 3, 4, 7}) {
    for (std::size_t pieces : {1u, 5u}) {
      check<CombiningPartitioner<Row<2>, RecordingStreams>>(16, ranks, 10007, 4, KeyDistribution::uniform, pieces);
      check<CombiningPartitioner<Row<2>, RecordingStreams>>(16, ranks, 10007, 1020, KeyDistribution::zipf, pieces);
      check<CombiningPartitioner<Row<4>, RecordingStreams>>(32, ranks, 3001, 2, KeyDistribution::uniform, pieces);
      check<CombiningPartitioner<Row<8>, RecordingStreams>>(64, ranks, 3001, 1, KeyDistribution::uniform, pieces);
      check<DirectPartitioner<FixedRowCopy<Row<2>>, RecordingStreams>>(16, ranks, 10007, 5, KeyDistribution::uniform, pieces);
      check<DirectPartitioner<FixedRowCopy<Row<2>>, RecordingStreams>>(16, ranks, 10007, 1020, KeyDistribution::zipf, pieces);
      check<DirectPartitioner<FixedRowCopy<Row<8>>, RecordingStreams>>(64, ranks, 3001, 1, KeyDistribution::uniform, pieces);
      check<DirectPartitioner<RowCopy, RecordingStreams>>(24, ranks, 3001, 3, KeyDistribution::uniform, pieces);
      check<DirectPartitioner<RowCopy, RecordingStreams>>(136, ranks, 501, 1, KeyDistribution::uniform, pieces);
    }
  }
}

TEST(BatchPartitioners, EmptyInputShipsOneEmptyLastBatchPerDestination) {
  check<CombiningPartitioner<Row<2>, RecordingStreams>>(16, 3, 0, 4, KeyDistribution::uniform, 1);
  check<DirectPartitioner<FixedRowCopy<Row<4>>, RecordingStreams>>(32, 3, 0, 4, KeyDistribution::uniform, 1);
  check<DirectPartitioner<RowCopy, RecordingStreams>>(40, 3, 0, 4, KeyDistribution::uniform, 1);
}

TEST(BatchPartitioners, AllRowsToOneDestination) {
  check<CombiningPartitioner<Row<2>, RecordingStreams>>(16, 4, 5000, 8, KeyDistribution::all_to_one, 3);
  check<DirectPartitioner<FixedRowCopy<Row<2>>, RecordingStreams>>(16, 4, 5000, 8, KeyDistribution::all_to_one, 3);
}

TEST(RowRouter, SpreadsUniformKeysEvenlyAndKeepsOneRankAtZero) {
  const RowRouter one(1);
  EXPECT_EQ(one(0), 0u);
  EXPECT_EQ(one(~0ULL), 0u);
  const RowRouter router(5);
  std::map<std::size_t, int> hits;
  for (std::uint64_t k = 0; k < 50000; ++k) ++hits[router(k * 0x2545F4914F6CDD1DULL)];
  ASSERT_EQ(hits.size(), 5u);
  for (const auto& [rank, count] : hits) EXPECT_NEAR(count, 10000, 500) << rank;
  EXPECT_EQ(router(0), 0u);  // the all-to-one key
}

}  // namespace
}  // namespace hpcdb
