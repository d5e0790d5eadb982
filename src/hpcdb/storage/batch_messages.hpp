#pragma once
// The messages of the batch interface between query engines and storage
// engines. Every message starts with its kind (one byte).
//
//   query engine -> storage: QUERY BATCH (a whole batch for one table
//     fragment), ENGINE HELLO (an engine connects), ENGINE DONE (it will send
//     no more), HEARTBEAT (it is alive while it has nothing to ask)
//   storage -> query engine, per batch and engine: START BATCH (sequence 0:
//     the batch's queries of this engine, in bitset order, and the record
//     layout), then RESULT pieces (sequences 1, 2, ...), the last one flagged
//     END BATCH.
//
// Messages of one batch may arrive in any order (several network threads,
// large messages overtaking small ones); the receiver restores the order by
// sequence number.
#include <cstdint>
#include <span>
#include <vector>

#include "hpcdb/storage/result_format.hpp"
#include "hpcdb/storage/storage_query.hpp"

namespace hpcdb {

enum class BatchMessage : std::uint8_t {
  query_batch = 1,
  start_batch = 2,
  result = 3,
  engine_hello = 4,
  engine_done = 5,
  heartbeat = 6,
};

BatchMessage message_kind(std::span<const std::byte> payload);  // Error for an empty or unknown one

struct StartBatch {
  std::uint32_t table = 0;
  std::uint32_t fragment = 0;
  std::uint64_t batch = 0;
  std::uint32_t engine = 0;
  std::vector<std::uint64_t> engine_batches;  // the engine's QUERY BATCHes this batch serves
  std::vector<QueryId> queries;               // bit i of every bitset = queries[i]
  ResultLayout layout = ResultLayout::tuple_free;
  RecordLayout record;
  // Propagated updates the fragment's scan copy had applied when this batch
  // was scanned: its queries saw that prefix of the fragment's update log.
  std::uint64_t updates = 0;
};
std::vector<std::byte> encode_start_batch(const StartBatch& start);
StartBatch decode_start_batch(std::span<const std::byte> payload);

// In front of every RESULT piece.
struct ResultPieceHeader {
  BatchMessage kind = BatchMessage::result;
  ResultLayout layout = ResultLayout::tuple_free;
  std::uint8_t last = 0;  // END BATCH
  std::uint8_t unused = 0;
  std::uint32_t table = 0;
  std::uint32_t fragment = 0;
  std::uint32_t sequence = 0;
  std::uint64_t batch = 0;
  std::uint32_t tuples = 0;
  std::uint32_t tuple_bytes = 0;          // bitset + record
  std::uint64_t tuple_section_bytes = 0;  // general layout only
  std::uint64_t batch_tuples = 0;         // on the last piece: tuples of the whole batch
};
static_assert(sizeof(ResultPieceHeader) == 48);

// Small control messages: kind, engine, and (DONE) the queries it sent.
struct EngineNotice {
  BatchMessage kind = BatchMessage::engine_hello;
  std::uint32_t engine = 0;
};
std::vector<std::byte> encode_notice(const EngineNotice& notice);
EngineNotice decode_notice(std::span<const std::byte> payload);

// A QUERY BATCH message: the kind, then the encoded batch.
std::vector<std::byte> encode_query_batch_message(const QueryBatch& batch);
QueryBatch decode_query_batch_message(std::span<const std::byte> payload);

}  // namespace hpcdb
