#include "hpcdb/storage/storage_query.hpp"

#include "hpcdb/storage/byte_codec.hpp"

namespace hpcdb {
namespace {

constexpr std::uint32_t kBatchMagic = 0x51424348;  // "QBCH"

void put_predicate(ByteWriter& w, const Predicate& p) {
  w.put<std::uint16_t>(p.column);
  w.put<std::uint8_t>(static_cast<std::uint8_t>(p.kind));
  w.put<std::int64_t>(p.low);
  w.put<std::int64_t>(p.high);
  if (p.kind == Predicate::Kind::set) w.put_span<std::uint64_t>(p.bits);
}

Predicate get_predicate(ByteReader& r) {
  Predicate p;
  p.column = r.get<std::uint16_t>();
  const auto kind = r.get<std::uint8_t>();
  if (kind > 1) throw Error("malformed query batch: predicate kind " + std::to_string(kind));
  p.kind = static_cast<Predicate::Kind>(kind);
  p.low = r.get<std::int64_t>();
  p.high = r.get<std::int64_t>();
  if (p.kind == Predicate::Kind::set) {
    p.bits = r.get_vector<std::uint64_t>();
    if (!p.empty() && p.bits.size() != static_cast<std::size_t>((p.high - p.low) / 64 + 1)) {
      throw Error("malformed query batch: a set predicate's bitmap does not cover its range");
    }
  }
  return p;
}

}  // namespace

std::vector<std::byte> encode_query_batch(const QueryBatch& batch) {
  ByteWriter w;
  w.put<std::uint32_t>(kBatchMagic);
  w.put<std::uint32_t>(batch.table);
  w.put<std::uint32_t>(batch.engine);
  w.put<std::uint64_t>(batch.engine_batch);
  w.put<std::uint32_t>(static_cast<std::uint32_t>(batch.queries.size()));
  for (const StorageQuery& q : batch.queries) {
    w.put<std::uint64_t>(q.id);
    w.put<std::uint8_t>(static_cast<std::uint8_t>(q.kind));
    w.put<std::uint32_t>(static_cast<std::uint32_t>(q.predicates.size()));
    for (const Predicate& p : q.predicates) put_predicate(w, p);
    w.put_span<std::uint16_t>(q.projection);
    w.put<std::int64_t>(q.key);
    w.put<std::uint16_t>(q.update_column);
    w.put<std::int64_t>(q.update_value);
  }
  return w.bytes();
}

QueryBatch decode_query_batch(std::span<const std::byte> bytes) {
  ByteReader r(bytes, "query batch");
  if (r.get<std::uint32_t>() != kBatchMagic) throw Error("malformed query batch: wrong magic number");
  QueryBatch batch;
  batch.table = r.get<std::uint32_t>();
  batch.engine = r.get<std::uint32_t>();
  batch.engine_batch = r.get<std::uint64_t>();
  const auto n = r.get<std::uint32_t>();
  if (n > r.remaining()) throw Error("malformed query batch: " + std::to_string(n) + " queries in " + std::to_string(r.remaining()) + " bytes");
  batch.queries.resize(n);
  for (StorageQuery& q : batch.queries) {
    q.id = r.get<std::uint64_t>();
    const auto kind = r.get<std::uint8_t>();
    if (kind > 2) throw Error("malformed query batch: query kind " + std::to_string(kind));
    q.kind = static_cast<QueryKind>(kind);
    const auto predicates = r.get<std::uint32_t>();
    if (predicates > r.remaining()) throw Error("malformed query batch: " + std::to_string(predicates) + " predicates");
    for (std::uint32_t i = 0; i < predicates; ++i) q.predicates.push_back(get_predicate(r));
    q.projection = r.get_vector<std::uint16_t>();
    q.key = r.get<std::int64_t>();
    q.update_column = r.get<std::uint16_t>();
    q.update_value = r.get<std::int64_t>();
  }
  r.expect_end();
  return batch;
}

}  // namespace hpcdb
