#include "hpcdb/query/stub_client.hpp"

#include <cstring>

#include "hpcdb/core/error.hpp"
#include "hpcdb/storage/batch_messages.hpp"

namespace hpcdb {

StubClient::StubClient(std::uint32_t table, std::uint32_t engine, std::vector<int> fragment_ranks, BatchSender sender)
    : table_(table), engine_(engine), fragment_ranks_(std::move(fragment_ranks)), sender_(std::move(sender)) {
  if (fragment_ranks_.empty()) throw Error("table " + std::to_string(table) + " has no fragment on any storage engine");
}

std::uint64_t StubClient::send(std::vector<StorageQuery> queries, Priority priority, BatchConsumer& consumer) {
  QueryBatch batch;
  batch.table = table_;
  batch.engine = engine_;
  batch.queries = std::move(queries);
  {
    std::lock_guard lock(mutex_);
    batch.engine_batch = next_batch_++;
    outstanding_[batch.engine_batch] = {&consumer, fragment_ranks_.size()};
    ++counts_.batches;
    counts_.queries += batch.queries.size();
  }
  const std::vector<std::byte> message = encode_query_batch_message(batch);
  for (int rank : fragment_ranks_) {
    sender_(rank, message, priority);
    std::lock_guard lock(mutex_);
    counts_.bytes_sent += message.size();
  }
  return batch.engine_batch;
}

void StubClient::receive(int source, std::unique_ptr<ReceivedPayload> message) {
  const std::span<const std::byte> bytes = message->bytes();
  const BatchMessage kind = message_kind(bytes);
  std::uint32_t fragment = 0;
  std::uint64_t batch = 0;
  std::uint32_t sequence = 0;
  std::shared_ptr<StartBatch> start;
  if (kind == BatchMessage::start_batch) {
    start = std::make_shared<StartBatch>(decode_start_batch(bytes));
    if (start->table != table_ || start->engine != engine_) {
      throw Error("a START BATCH for table " + std::to_string(start->table) + " and engine " +
                  std::to_string(start->engine) + " reached table " + std::to_string(table_) + " of engine " +
                  std::to_string(engine_));
    }
    fragment = start->fragment;
    batch = start->batch;
  } else if (kind == BatchMessage::result) {
    if (bytes.size() < sizeof(ResultPieceHeader)) throw Error("malformed result piece: shorter than its header");
    ResultPieceHeader h;
    std::memcpy(&h, bytes.data(), sizeof(h));
    fragment = h.fragment;
    batch = h.batch;
    sequence = h.sequence;
    if (sequence == 0) throw Error("malformed result piece: sequence number 0 belongs to START BATCH");
  } else {
    throw Error("table " + std::to_string(table_) + "'s stub client got a message that is no result");
  }
  if (fragment >= fragment_ranks_.size() || fragment_ranks_[fragment] != source) {
    throw Error("rank " + std::to_string(source) + " sent results for fragment " + std::to_string(fragment) +
                " of table " + std::to_string(table_) + ", which it does not hold");
  }

  std::lock_guard lock(mutex_);
  ++counts_.messages_received;
  counts_.bytes_received += bytes.size();
  const ReorderKey key{source, fragment, batch};
  Reorder& r = reorder_[key];
  if (start) {
    if (r.start) throw Error("START BATCH of batch " + std::to_string(batch) + " arrived twice");
    for (std::uint64_t b : start->engine_batches) {
      const auto it = outstanding_.find(b);
      if (it == outstanding_.end()) {
        throw Error("storage rank " + std::to_string(source) + " answers batch " + std::to_string(b) + " of table " +
                    std::to_string(table_) + ", which this engine did not send or has finished");
      }
      r.consumers.push_back(it->second.consumer);
    }
    r.start = start;
  }
  if (sequence != r.next || (sequence > 0 && !r.start)) {
    if (sequence < r.next || r.early.count(sequence) > 0) {
      throw Error("message " + std::to_string(sequence) + " of batch " + std::to_string(batch) + " from rank " +
                  std::to_string(source) + " arrived twice");
    }
    if (sequence > 0) {
      r.early.emplace(sequence, std::move(message));
      ++counts_.out_of_order;
      return;
    }
  }
  bool finished = false;
  deliver(r, sequence, std::move(message), source, fragment, finished);
  while (!finished) {
    auto it = r.early.find(r.next);
    if (it == r.early.end()) break;
    std::unique_ptr<ReceivedPayload> next = std::move(it->second);
    r.early.erase(it);
    deliver(r, r.next, std::move(next), source, fragment, finished);
  }
  if (finished) {
    for (std::uint64_t b : r.start->engine_batches) {
      Outstanding& o = outstanding_[b];
      if (--o.fragments_left == 0) outstanding_.erase(b);
    }
    reorder_.erase(key);
  }
}

void StubClient::deliver(Reorder& r, std::uint32_t sequence, std::unique_ptr<ReceivedPayload> message, int source,
                         std::uint32_t fragment, bool& finished) {
  if (sequence == 0) {
    ++r.next;
    for (BatchConsumer* c : r.consumers) c->consume({BatchEvent::Kind::start, source, table_, fragment, r.start, nullptr});
    return;
  }
  ResultPieceHeader h;
  std::memcpy(&h, message->bytes().data(), sizeof(h));
  if (h.tuple_bytes != r.start->record.tuple_bytes() || h.layout != r.start->layout) {
    throw Error("a result piece does not match its batch's record layout");
  }
  const std::size_t expected = sizeof(ResultPieceHeader) + h.tuple_section_bytes + std::size_t{h.tuples} * h.tuple_bytes;
  if (message->bytes().size() != expected ||
      (h.layout == ResultLayout::general && h.tuple_section_bytes != std::size_t{h.tuples} * sizeof(TupleEntry))) {
    throw Error("malformed result piece: " + std::to_string(message->bytes().size()) + " bytes for " +
                std::to_string(h.tuples) + " tuples");
  }
  ++r.next;
  std::shared_ptr<const ReceivedPayload> shared(std::move(message));
  for (BatchConsumer* c : r.consumers) c->consume({BatchEvent::Kind::piece, source, table_, fragment, r.start, shared});
  if (h.last != 0) {
    finished = true;
    for (BatchConsumer* c : r.consumers) {
      c->consume({BatchEvent::Kind::fragment_done, source, table_, fragment, r.start, nullptr});
    }
  }
}

StubClientCounts StubClient::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

std::size_t StubClient::pending() const {
  std::lock_guard lock(mutex_);
  return outstanding_.size();
}

}  // namespace hpcdb
