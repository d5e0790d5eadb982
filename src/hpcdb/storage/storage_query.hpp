#pragma once
// What a query engine asks a storage engine for, one table at a time: a
// selection (predicates and the columns to return), a point lookup by
// primary key, or an update of one column of the row with a primary key.
// Queries travel in whole batches (one per engine and table per batch cycle).
#include <cstdint>
#include <span>
#include <vector>

#include "hpcdb/storage/predicate.hpp"

namespace hpcdb {

// Table ids of the batch interface: a table's scan backend answers to its
// id, its key-value backend to its id + kKeyValueTableOffset.
constexpr std::uint32_t kKeyValueTableOffset = 16;

// Unique across query engines: engine e of E issues ids congruent to e
// modulo E (QueryIdSpace).
using QueryId = std::uint64_t;

enum class QueryKind : std::uint8_t { select = 0, lookup = 1, update = 2 };

struct StorageQuery {
  QueryId id = 0;
  QueryKind kind = QueryKind::select;
  std::vector<Predicate> predicates;    // select: a conjunction
  std::vector<std::uint16_t> projection;  // select, lookup: the columns returned
  std::int64_t key = 0;                 // lookup, update: the primary key
  std::uint16_t update_column = 0;      // update: column := value
  std::int64_t update_value = 0;
};

struct QueryBatch {
  std::uint32_t table = 0;
  std::uint32_t engine = 0;
  std::uint64_t engine_batch = 0;  // the engine's own number for this batch
  std::vector<StorageQuery> queries;
};

std::vector<std::byte> encode_query_batch(const QueryBatch& batch);
// Error ("malformed query batch: ...") for bytes that are not one.
QueryBatch decode_query_batch(std::span<const std::byte> bytes);

// Query ids of one engine: e, e + E, e + 2E, ...
class QueryIdSpace {
 public:
  QueryIdSpace(std::uint32_t engine, std::uint32_t engines) : next_(engine), step_(engines) {}
  QueryId next() {
    const QueryId id = next_;
    next_ += step_;
    return id;
  }
  static std::uint32_t engine_of(QueryId id, std::uint32_t engines) { return static_cast<std::uint32_t>(id % engines); }

 private:
  QueryId next_;
  QueryId step_;
};

}  // namespace hpcdb
