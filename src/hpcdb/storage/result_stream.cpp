#include "hpcdb/storage/result_stream.hpp"

#include <cstring>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

void ResultStream::send_start(const StartBatch& start) {
  const std::vector<std::byte> bytes = encode_start_batch(start);
  std::unique_ptr<PieceBuffer> buffer = channel_.acquire(bytes.size());
  std::memcpy(buffer->data(), bytes.data(), bytes.size());
  std::lock_guard lock(mutex_);
  if (next_sequence_ != 0) throw Error("START BATCH must be the first message of a batch");
  ++next_sequence_;
  ++counts_.messages;
  counts_.bytes += bytes.size();
  channel_.deliver(std::move(buffer), bytes.size(), priority_);
}

void ResultStream::ship(std::unique_ptr<PieceBuffer> buffer, std::size_t bytes) {
  if (bytes < sizeof(ResultPieceHeader) || bytes > buffer->capacity()) {
    throw Error("a result piece of " + std::to_string(bytes) + " bytes does not fit its buffer");
  }
  std::lock_guard lock(mutex_);
  if (next_sequence_ == 0) throw Error("a result piece was shipped before START BATCH");
  auto* header = reinterpret_cast<ResultPieceHeader*>(buffer->data());
  header->sequence = next_sequence_++;
  ++counts_.messages;
  counts_.bytes += bytes;
  channel_.deliver(std::move(buffer), bytes, priority_);
}

}  // namespace hpcdb
