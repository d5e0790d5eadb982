// Every shuffle design against a serial reference: each rank generates all
// rows, keeps the ones the documented routing rule sends it, and compares
// that exact multiset, source by source, with what the operator handed to
// its consumer; end of stream must come once per source, after its rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/data/row_workload.hpp"
#include "hpcdb/shuffle/shuffle.hpp"
#include "mpi/test_cluster.hpp"

namespace hpcdb::testing {
namespace {

using RowWords = std::vector<std::uint64_t>;

// Keeps a copy of every row it is handed, per source.
class CollectingConsumer final : public ShuffleConsumer {
 public:
  CollectingConsumer(int ranks, unsigned threads, std::uint32_t row_bytes)
      : threads_(threads), words_(row_bytes / 8), rows_(static_cast<std::size_t>(ranks)),
        ends_(static_cast<std::size_t>(ranks), 0), rows_at_end_(static_cast<std::size_t>(ranks), 0) {}

  void consume(unsigned worker, int source, const std::byte* rows, std::size_t count) override {
    EXPECT_LT(worker, threads_);
    const auto* w = reinterpret_cast<const std::uint64_t*>(rows);
    std::lock_guard lock(mutex_);
    auto& mine = rows_[static_cast<std::size_t>(source)];
    for (std::size_t i = 0; i < count; ++i) mine.emplace_back(w + i * words_, w + (i + 1) * words_);
  }

  void end_of_stream(int source) override {
    std::lock_guard lock(mutex_);
    ++ends_[static_cast<std::size_t>(source)];
    rows_at_end_[static_cast<std::size_t>(source)] = rows_[static_cast<std::size_t>(source)].size();
  }

  std::vector<RowWords> sorted_from(int source) {
    std::vector<RowWords> r = rows_[static_cast<std::size_t>(source)];
    std::sort(r.begin(), r.end());
    return r;
  }
  int ends(int source) const { return ends_[static_cast<std::size_t>(source)]; }
  std::size_t rows_at_end(int source) const { return rows_at_end_[static_cast<std::size_t>(source)]; }

 private:
  unsigned threads_;
  std::size_t words_;
  std::mutex mutex_;
  std::vector<std::vector<RowWords>> rows_;
  std::vector<int> ends_;
  std::vector<std::size_t> rows_at_end_;
};

// Which global rows each rank holds.
enum class Inputs { even, rank0_sends_nothing };

std::vector<std::pair<std::uint64_t, std::uint64_t>> input_ranges(std::uint64_t rows, int ranks, Inputs inputs) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  if (inputs == Inputs::rank0_sends_nothing && ranks > 1) {
    ranges.emplace_back(0, 0);
    for (int r = 1; r < ranks; ++r) {
      const RowRange range = rank_rows(rows, r - 1, ranks - 1);
      ranges.emplace_back(range.first, range.count);
    }
    return ranges;
  }
  for (int r = 0; r < ranks; ++r) {
    const RowRange range = rank_rows(rows, r, ranks);
    ranges.emplace_back(range.first, range.count);
  }
  return ranges;
}

int destination_of(std::uint64_t key, int ranks) {
  __extension__ typedef unsigned __int128 Wide;
  return static_cast<int>((static_cast<Wide>(key * 0x9E3779B97F4A7C15ULL) * static_cast<unsigned>(ranks)) >> 64);
}

void check_exchange(const ShuffleConfig& config, const RowWorkloadSpec& spec, Inputs inputs, int runs,
                    const std::string& what) {
  const Cluster& c = cluster();
  const std::size_t words = spec.row_bytes / 8;
  std::vector<std::uint64_t> all(spec.rows * words + 1);
  generate_rows(spec, 0, spec.rows, all.data());
  const auto ranges = input_ranges(spec.rows, c.size(), inputs);
  const auto [first, count] = ranges[static_cast<std::size_t>(c.rank())];
  // Serial reference: per source, the rows this rank must receive.
  std::vector<std::vector<RowWords>> expected(static_cast<std::size_t>(c.size()));
  for (int s = 0; s < c.size(); ++s) {
    const auto [s_first, s_count] = ranges[static_cast<std::size_t>(s)];
    for (std::uint64_t g = s_first; g < s_first + s_count; ++g) {
      const std::uint64_t* row = all.data() + g * words;
      if (destination_of(row[0], c.size()) == c.rank()) expected[static_cast<std::size_t>(s)].emplace_back(row, row + words);
    }
    std::sort(expected[static_cast<std::size_t>(s)].begin(), expected[static_cast<std::size_t>(s)].end());
  }
  const RowSpan input{reinterpret_cast<const std::byte*>(all.data() + first * words), count};
  std::unique_ptr<Shuffle> shuffle = make_shuffle(c, config, spec.rows);
  EXPECT_EQ(shuffle->design(), config.design);
  for (int run = 0; run < runs; ++run) {
    CollectingConsumer consumer(c.size(), config.threads, spec.row_bytes);
    const ShuffleRunStats stats = shuffle->run(input, consumer);
    EXPECT_EQ(stats.rank.rows_in, count) << what;
    std::uint64_t received = 0;
    for (int s = 0; s < c.size(); ++s) {
      const std::vector<RowWords> got = consumer.sorted_from(s);
      received += got.size();
      EXPECT_EQ(got.size(), expected[static_cast<std::size_t>(s)].size()) << what << ", run " << run << ", from rank " << s;
      EXPECT_TRUE(got == expected[static_cast<std::size_t>(s)]) << what << ", run " << run << ", from rank " << s;
      EXPECT_EQ(consumer.ends(s), 1) << what << ", end of stream of rank " << s;
      EXPECT_EQ(consumer.rows_at_end(s), got.size()) << what << ", end of stream of rank " << s << " came too early";
    }
    EXPECT_EQ(stats.rank.rows_received, received) << what;
    EXPECT_GE(stats.seconds, stats.rank.seconds) << what;
  }
  const ShuffleResources resources = shuffle->resources();
  if (c.size() > 1) {
    EXPECT_GT(resources.registered_bytes, 0u) << what;
    EXPECT_GT(resources.endpoints, 0u) << what;
  }
}

ShuffleConfig config_for(ShuffleDesign design) {
  ShuffleConfig c;
  c.design = design;
  c.buffer_bytes = 1024;
  c.buffers = 3;
  return c;
}

RowWorkloadSpec rows_of(std::uint64_t rows, std::uint32_t width, KeyDistribution keys) {
  RowWorkloadSpec spec;
  spec.rows = rows;
  spec.row_bytes = width;
  spec.keys = keys;
  spec.seed = 5;
  return spec;
}

class EveryDesign : public ::testing::TestWithParam<ShuffleDesign> {};

TEST_P(EveryDesign, UniformRowsRepeatedOnOneOperator) {
  check_exchange(config_for(GetParam()), rows_of(20000, 16, KeyDistribution::uniform), Inputs::even, 3, "uniform");
}

TEST_P(EveryDesign, EmptyStreams) {
  check_exchange(config_for(GetParam()), rows_of(0, 16, KeyDistribution::uniform), Inputs::even, 2, "no rows at all");
}

TEST_P(EveryDesign, OneRankSendsNothing) {
  check_exchange(config_for(GetParam()), rows_of(5000, 16, KeyDistribution::uniform), Inputs::rank0_sends_nothing, 1,
                 "rank 0 without rows");
}

TEST_P(EveryDesign, AllRowsToOneRankThroughOneCredit) {
  ShuffleConfig config = config_for(GetParam());
  config.buffers = 1;
  config.buffer_bytes = 128;  // four rows per batch
  check_exchange(config, rows_of(4000, 16, KeyDistribution::all_to_one), Inputs::even, 2, "all to one");
}

TEST_P(EveryDesign, BatchesSentOutOfOrder) {
  ShuffleConfig config = config_for(GetParam());
  config.reorder_batches = true;
  config.buffer_bytes = 256;
  config.buffers = 2;
  check_exchange(config, rows_of(6000, 16, KeyDistribution::uniform), Inputs::even, 2, "out of order");
}

TEST_P(EveryDesign, WorkerThreadsWithSkewedWiderRows) {
  ShuffleConfig config = config_for(GetParam());
  config.threads = 3;
  config.row_bytes = 32;
  RowWorkloadSpec spec = rows_of(9000, 32, KeyDistribution::zipf);
  spec.zipf_theta = 1.2;
  check_exchange(config, spec, Inputs::even, 2, "threads, zipf");
}

TEST_P(EveryDesign, SoftwareWriteCombining) {
  for (std::uint32_t width : {16u, 64u}) {
    ShuffleConfig config = config_for(GetParam());
    config.row_writes = RowWrites::combining;
    config.row_bytes = width;
    check_exchange(config, rows_of(6000, width, KeyDistribution::zipf), Inputs::even, 1,
                   "write-combining, width " + std::to_string(width));
  }
}

TEST_P(EveryDesign, RowsThatDoNotTileACacheLine) {
  for (std::uint32_t width : {24u, 136u}) {
    ShuffleConfig config = config_for(GetParam());
    config.row_bytes = width;
    check_exchange(config, rows_of(3000, width, KeyDistribution::uniform), Inputs::even, 1, "width " + std::to_string(width));
  }
  ShuffleConfig config = config_for(GetParam());
  config.row_bytes = 64;
  config.buffer_bytes = 128;  // one row per batch
  check_exchange(config, rows_of(1500, 64, KeyDistribution::uniform), Inputs::even, 1, "one 64-byte row per batch");
}

TEST_P(EveryDesign, BadParametersAreRefusedOnEveryRank) {
  ShuffleConfig config = config_for(GetParam());
  config.buffer_bytes = 64;
  try {
    make_shuffle(cluster(), config, 100);
    ADD_FAILURE() << "a buffer without room for a row was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("holds no row"), std::string::npos) << e.what();
  }
  config = config_for(GetParam());
  config.buffers = 0;
  try {
    make_shuffle(cluster(), config, 100);
    ADD_FAILURE() << "zero credits were accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--buffers must be at least 1"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Shuffle, EveryDesign, ::testing::ValuesIn(available_shuffle_designs()),
                         [](const auto& info) {
                           std::string name = to_string(info.param);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(MpiOneSidedShuffle, ThroughMpiRmaBetweenRanksOfOneNode) {
  ShuffleConfig config = config_for(ShuffleDesign::mpi_one_sided);
  config.direct_writes = false;
  check_exchange(config, rows_of(20000, 16, KeyDistribution::uniform), Inputs::even, 2, "RMA");
  config.threads = 2;
  config.reorder_batches = true;
  check_exchange(config, rows_of(8000, 16, KeyDistribution::zipf), Inputs::rank0_sends_nothing, 1, "RMA, threads");
}

}  // namespace
}  // namespace hpcdb::testing
