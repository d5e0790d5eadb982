#pragma once
// The query engine's stand-in for a table held by storage engines (one per
// table and backend). It has no thread: its consumers call send(), which
// serializes the whole batch once and sends it to every fragment's storage
// engine (over the message layer, or by a function call to a storage engine
// in the same process); and the network threads call receive() with what
// comes back. receive() restores each batch's order (START BATCH is sequence
// 0, the pieces follow, any order on arrival), learns from START BATCH which
// of this engine's batches, and so which consumers, the results are for, and
// hands them on in order; after END BATCH it forgets the batch.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <tuple>
#include <vector>

#include "hpcdb/net/messaging/message_layer_config.hpp"
#include "hpcdb/query/batch_consumer.hpp"
#include "hpcdb/storage/storage_query.hpp"

namespace hpcdb {

// Sends a query batch message to the storage engine on `rank`.
using BatchSender = std::function<void(int rank, std::span<const std::byte> message, Priority priority)>;

struct StubClientCounts {
  std::uint64_t batches = 0;
  std::uint64_t queries = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t messages_received = 0;
  std::uint64_t bytes_received = 0;
  std::uint64_t out_of_order = 0;  // messages that arrived before an earlier one of their batch
};

class StubClient {
 public:
  // `table`: the batch interface's table id; `fragment_ranks`: the storage
  // engine rank of each fragment.
  StubClient(std::uint32_t table, std::uint32_t engine, std::vector<int> fragment_ranks, BatchSender sender);

  std::uint32_t table() const { return table_; }
  std::size_t fragments() const { return fragment_ranks_.size(); }
  int fragment_rank(std::size_t fragment) const { return fragment_ranks_.at(fragment); }
  // Sends `queries` as one batch to every fragment; `consumer` gets the
  // results (it must outlive them). Returns the engine's batch number.
  std::uint64_t send(std::vector<StorageQuery> queries, Priority priority, BatchConsumer& consumer);
  // A START BATCH or RESULT message from storage engine rank `source`.
  void receive(int source, std::unique_ptr<ReceivedPayload> message);
  StubClientCounts counts() const;
  // Batches whose results have not all arrived.
  std::size_t pending() const;

 private:
  struct Reorder {
    std::uint32_t next = 0;  // sequence expected next
    std::shared_ptr<const StartBatch> start;
    std::vector<BatchConsumer*> consumers;
    std::map<std::uint32_t, std::unique_ptr<ReceivedPayload>> early;  // by sequence
  };
  struct Outstanding {
    BatchConsumer* consumer = nullptr;
    std::size_t fragments_left = 0;
  };
  using ReorderKey = std::tuple<int, std::uint32_t, std::uint64_t>;  // source, fragment, storage batch

  void deliver(Reorder& r, std::uint32_t sequence, std::unique_ptr<ReceivedPayload> message, int source,
               std::uint32_t fragment, bool& finished);

  std::uint32_t table_;
  std::uint32_t engine_;
  std::vector<int> fragment_ranks_;
  BatchSender sender_;
  mutable std::mutex mutex_;
  std::uint64_t next_batch_ = 1;
  std::map<std::uint64_t, Outstanding> outstanding_;  // by engine batch
  std::map<ReorderKey, Reorder> reorder_;
  StubClientCounts counts_;
};

}  // namespace hpcdb
