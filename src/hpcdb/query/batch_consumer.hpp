#pragma once
// What a query-engine operator gets back for a batch it sent to a table: per
// fragment, the START BATCH (which of its queries the bits stand for, and
// the record layout), then the result pieces in sequence order, then the
// end of that fragment's results. Calls come from the message layer's
// network threads or a local storage thread; a consumer queues them for its
// own thread.
#include <cstdint>
#include <memory>

#include "hpcdb/storage/batch_messages.hpp"
#include "hpcdb/storage/result_stream.hpp"

namespace hpcdb {

struct BatchEvent {
  enum class Kind { start, piece, fragment_done } kind = Kind::start;
  int source = 0;  // the storage engine's rank
  std::uint32_t table = 0;
  std::uint32_t fragment = 0;
  std::shared_ptr<const StartBatch> start;         // every kind: the batch's START
  std::shared_ptr<const ReceivedPayload> payload;  // piece: the RESULT message
};

class BatchConsumer {
 public:
  virtual ~BatchConsumer() = default;
  virtual void consume(BatchEvent event) = 0;
};

}  // namespace hpcdb
