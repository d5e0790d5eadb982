#pragma once
// The shuffle (exchange) operator: every rank hash-partitions its rows by
// destination rank (row_router.hpp), the rows travel, and each destination
// hands them to its consumer while the exchange goes on. One interface,
// several designs (shuffle_config.hpp); make_shuffle() builds the one a
// config names. Construction and run() are collective over the job.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/shuffle/shuffle_config.hpp"
#include "hpcdb/shuffle/shuffle_consumer.hpp"

namespace hpcdb {

// This rank's input: `rows` rows of the shuffle's width, 8-byte aligned.
struct RowSpan {
  const std::byte* data = nullptr;
  std::size_t rows = 0;
};

// One rank's share of one exchange.
struct ShuffleRankStats {
  double seconds = 0;                  // from the common start until this rank had received everything
  std::uint64_t rows_in = 0;           // input rows
  std::uint64_t rows_received = 0;     // rows handed to the consumer (own rows included)
  std::uint64_t bytes_sent = 0;        // to other ranks, batch headers included
  std::uint64_t bytes_sent_off_node = 0;  // the part of bytes_sent that went to other nodes
  std::uint64_t bytes_received = 0;    // from other ranks
  std::uint64_t messages_sent = 0;     // batches (alltoallv: non-empty blocks) to other ranks
  double credit_wait_seconds = 0;      // waiting for a destination to return a buffer
  double drain_seconds = 0;            // after the own input was sent, until the last batch arrived
  std::vector<std::pair<std::string, double>> phases;  // the design's phases on this rank
};

struct ShuffleRunStats {
  double seconds = 0;  // the exchange: from a barrier until the last rank had received everything
  ShuffleRankStats rank;
};

// What a design holds for as long as it lives, on this rank.
struct ShuffleResources {
  std::uint64_t registered_bytes = 0;  // communication buffers, rings and windows
  std::uint64_t endpoints = 0;         // connections opened (README: per design)
};

class Shuffle {
 public:
  virtual ~Shuffle() = default;
  virtual ShuffleDesign design() const = 0;
  // Collective: moves every rank's input to the ranks row_router.hpp names,
  // handing the rows to `consumer` there (on `threads` worker threads).
  virtual ShuffleRunStats run(RowSpan input, ShuffleConsumer& consumer) = 0;
  virtual ShuffleResources resources() const = 0;
};

// Collective. Throws UsageError for an invalid config (on every rank alike)
// and Error when the design cannot be set up here (e.g. no UCX transport).
// `expected_rows` (over all ranks) sizes what a design must hold per
// exchange before the first one.
std::unique_ptr<Shuffle> make_shuffle(const Cluster& cluster, const ShuffleConfig& config, std::uint64_t expected_rows);

// The designs this build has, baseline first (what --transport all runs).
std::vector<ShuffleDesign> available_shuffle_designs();

}  // namespace hpcdb
