#include "hpcdb/query/lookup_operator.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <unordered_map>

#include "hpcdb/core/error.hpp"
#include "hpcdb/storage/result_piece_view.hpp"

namespace hpcdb {

LookupOperator::LookupOperator(StubClient& table, Priority priority, std::function<QueryId()> next_query_id,
                               std::function<double(int rank)> silence, double reply_timeout)
    : table_(table),
      priority_(priority),
      next_query_id_(std::move(next_query_id)),
      silence_(std::move(silence)),
      reply_timeout_(reply_timeout),
      worker_([this](std::vector<PointRequest>& requests) { run_cycle(requests); },
              {.background = false, .on_stop = [this] { events_.close(); }, .on_idle = {}}) {}

LookupOperator::~LookupOperator() { stop(); }

LookupOperatorStats LookupOperator::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void LookupOperator::run_cycle(std::vector<PointRequest>& requests) {
  std::vector<StorageQuery> queries;
  std::unordered_map<QueryId, std::size_t> index;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    StorageQuery q;
    q.id = next_query_id_();
    q.kind = requests[i].update ? QueryKind::update : QueryKind::lookup;
    q.key = requests[i].key;
    q.update_column = requests[i].column;
    q.update_value = requests[i].value;
    q.projection = requests[i].projection;
    index[q.id] = i;
    queries.push_back(std::move(q));
  }
  std::vector<std::optional<std::vector<std::int64_t>>> rows(requests.size());
  std::size_t fragments_left = table_.fragments();
  table_.send(std::move(queries), priority_, *this);
  std::vector<std::size_t> positions;
  while (fragments_left > 0) {
    if (worker_.stopping() && events_.closed()) throw Error("the lookup operator was stopped with answers outstanding");
    const std::vector<BatchEvent> events = events_.take_all(std::chrono::milliseconds(100));
    for (const BatchEvent& e : events) {
      if (e.kind == BatchEvent::Kind::fragment_done) {
        --fragments_left;
        continue;
      }
      const StartBatch& start = *e.start;
      positions.clear();
      for (QueryId id : start.queries) positions.push_back(index.at(id));
      if (e.kind != BatchEvent::Kind::piece) continue;
      const ResultPieceView piece(e.payload->bytes());
      for (std::size_t t = 0; t < piece.tuples(); ++t) {
        const std::byte* bits = piece.bitset(t);
        const std::byte* record = piece.record(t, start.record.bitset_bytes);
        for (std::size_t w = 0; w < start.record.bitset_bytes / 8; ++w) {
          std::uint64_t word;
          std::memcpy(&word, bits + 8 * w, 8);
          while (word != 0) {
            const std::size_t i = positions[64 * w + static_cast<std::size_t>(std::countr_zero(word))];
            word &= word - 1;
            std::vector<std::int64_t> values;
            for (std::uint16_t c : requests[i].projection) {
              const int offset = start.record.offset_of(c);
              const std::size_t width = start.record.widths[static_cast<std::size_t>(
                  std::find(start.record.columns.begin(), start.record.columns.end(), c) - start.record.columns.begin())];
              std::int64_t v = 0;
              if (width == 1 || width == 2 || width == 4 || width == 8) {
                std::memcpy(&v, record + offset, width);
                if (width == 4) v = static_cast<std::int32_t>(v);
              }
              values.push_back(v);
            }
            rows[i] = std::move(values);
          }
        }
      }
    }
    if (!events.empty()) continue;
    for (std::size_t f = 0; f < table_.fragments(); ++f) {
      const int rank = table_.fragment_rank(f);
      if (silence_(rank) > reply_timeout_) {
        throw Error("storage engine rank " + std::to_string(rank) + " has not answered point queries for " +
                    std::to_string(static_cast<int>(reply_timeout_)) + " s (--reply-timeout); is it still running?");
      }
    }
  }
  std::size_t found = 0;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    found += rows[i].has_value() ? 1 : 0;
    requests[i].done(std::move(rows[i]));
  }
  std::lock_guard lock(mutex_);
  ++stats_.cycles;
  stats_.requests += requests.size();
  stats_.found += found;
}

}  // namespace hpcdb
