#pragma once
// The shuffle's distributed tests' reference: each rank generates all rows,
// keeps the ones the documented routing rule sends it, and compares that
// exact multiset, source by source, with what the operator handed to its
// consumer; end of stream must come once per source, after its rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hpcdb/data/row_workload.hpp"
#include "hpcdb/shuffle/shuffle.hpp"
#include "net/test_cluster.hpp"

namespace hpcdb::testing {

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

inline std::vector<std::pair<std::uint64_t, std::uint64_t>> input_ranges(std::uint64_t rows, int ranks, Inputs inputs) {
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

inline int destination_of(std::uint64_t key, int ranks) {
  __extension__ typedef unsigned __int128 Wide;
  return static_cast<int>((static_cast<Wide>(key * 0x9E3779B97F4A7C15ULL) * static_cast<unsigned>(ranks)) >> 64);
}

inline void check_exchange(const ShuffleConfig& config, const RowWorkloadSpec& spec, Inputs inputs, int runs,
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

// Small batches and few credits, so that streams wrap their buffers often;
// the message layer without threads of its own (MPI_THREAD_SERIALIZED), its
// rings small, batches of 1 KiB two-sided and smaller ones through the rings.
inline ShuffleConfig config_for(ShuffleDesign design) {
  ShuffleConfig c;
  c.design = design;
  c.buffer_bytes = 1024;
  c.buffers = 3;
  c.layer.threads = 0;
  c.layer.ring_bytes = 16 << 10;
  c.layer.threshold = 512;
  return c;
}

// `bytes` of batch buffer for rows and batch header, plus the message layer's headroom.
inline std::size_t buffer_for(const ShuffleConfig& config, std::size_t bytes) {
  return bytes + (config.design == ShuffleDesign::message_layer ? kMessageLayerHeadroom : 0);
}

inline RowWorkloadSpec rows_of(std::uint64_t rows, std::uint32_t width, KeyDistribution keys) {
  RowWorkloadSpec spec;
  spec.rows = rows;
  spec.row_bytes = width;
  spec.keys = keys;
  spec.seed = 5;
  return spec;
}

}  // namespace hpcdb::testing
