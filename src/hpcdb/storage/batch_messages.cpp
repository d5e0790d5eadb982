#include "hpcdb/storage/batch_messages.hpp"

#include "hpcdb/storage/byte_codec.hpp"

namespace hpcdb {

BatchMessage message_kind(std::span<const std::byte> payload) {
  if (payload.empty()) throw Error("malformed batch-interface message: it is empty");
  const auto kind = static_cast<std::uint8_t>(payload[0]);
  if (kind < 1 || kind > 6) throw Error("malformed batch-interface message: unknown kind " + std::to_string(kind));
  return static_cast<BatchMessage>(kind);
}

std::vector<std::byte> encode_start_batch(const StartBatch& s) {
  ByteWriter w;
  w.put<std::uint8_t>(static_cast<std::uint8_t>(BatchMessage::start_batch));
  w.put<std::uint32_t>(s.table);
  w.put<std::uint32_t>(s.fragment);
  w.put<std::uint64_t>(s.batch);
  w.put<std::uint32_t>(s.engine);
  w.put_span<std::uint64_t>(s.engine_batches);
  w.put_span<std::uint64_t>(s.queries);
  w.put<std::uint8_t>(static_cast<std::uint8_t>(s.layout));
  w.put_span<std::uint16_t>(s.record.columns);
  w.put_span<std::uint32_t>(s.record.offsets);
  w.put_span<std::uint16_t>(s.record.widths);
  w.put<std::uint32_t>(s.record.record_bytes);
  w.put<std::uint32_t>(s.record.bitset_bytes);
  w.put<std::uint64_t>(s.updates);
  return w.bytes();
}

StartBatch decode_start_batch(std::span<const std::byte> payload) {
  ByteReader r(payload, "START BATCH message");
  if (r.get<std::uint8_t>() != static_cast<std::uint8_t>(BatchMessage::start_batch)) {
    throw Error("malformed START BATCH message: wrong kind");
  }
  StartBatch s;
  s.table = r.get<std::uint32_t>();
  s.fragment = r.get<std::uint32_t>();
  s.batch = r.get<std::uint64_t>();
  s.engine = r.get<std::uint32_t>();
  s.engine_batches = r.get_vector<std::uint64_t>();
  s.queries = r.get_vector<std::uint64_t>();
  const auto layout = r.get<std::uint8_t>();
  if (layout > 1) throw Error("malformed START BATCH message: result layout " + std::to_string(layout));
  s.layout = static_cast<ResultLayout>(layout);
  s.record.columns = r.get_vector<std::uint16_t>();
  s.record.offsets = r.get_vector<std::uint32_t>();
  s.record.widths = r.get_vector<std::uint16_t>();
  s.record.record_bytes = r.get<std::uint32_t>();
  s.record.bitset_bytes = r.get<std::uint32_t>();
  s.updates = r.get<std::uint64_t>();
  r.expect_end();
  std::uint64_t width = 0;
  for (std::uint16_t w : s.record.widths) width += w;
  if (s.record.offsets.size() != s.record.columns.size() || s.record.widths.size() != s.record.columns.size() ||
      width != s.record.record_bytes || s.record.bitset_bytes != 8 * ((s.queries.size() + 63) / 64)) {
    throw Error("malformed START BATCH message: its record layout does not add up");
  }
  return s;
}

std::vector<std::byte> encode_notice(const EngineNotice& n) {
  ByteWriter w;
  w.put<std::uint8_t>(static_cast<std::uint8_t>(n.kind));
  w.put<std::uint32_t>(n.engine);
  return w.bytes();
}

EngineNotice decode_notice(std::span<const std::byte> payload) {
  ByteReader r(payload, "engine notice");
  EngineNotice n;
  n.kind = static_cast<BatchMessage>(r.get<std::uint8_t>());
  n.engine = r.get<std::uint32_t>();
  r.expect_end();
  return n;
}

std::vector<std::byte> encode_query_batch_message(const QueryBatch& batch) {
  std::vector<std::byte> bytes = encode_query_batch(batch);
  bytes.insert(bytes.begin(), static_cast<std::byte>(BatchMessage::query_batch));
  return bytes;
}

QueryBatch decode_query_batch_message(std::span<const std::byte> payload) {
  if (message_kind(payload) != BatchMessage::query_batch) throw Error("malformed query batch: wrong message kind");
  return decode_query_batch(payload.subspan(1));
}

}  // namespace hpcdb
