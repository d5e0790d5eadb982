#include "hpcdb/storage/kv_server.hpp"

#include <cstring>
#include <map>
#include <memory>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/stopwatch.hpp"

namespace hpcdb {

KvServer::KvServer(TableFragment& fragment, Priority priority, ChannelFor channels)
    : fragment_(fragment),
      priority_(priority),
      channels_(std::move(channels)),
      worker_([this](std::vector<QueryBatch>& batches) { run_cycle(batches); }) {
  if (!fragment_.master) throw Error("table " + fragment_.rows.schema().name + " has no key-value backend here");
}

KvServer::~KvServer() { stop(); }

KvServerStats KvServer::stats() const {
  std::lock_guard lock(stats_mutex_);
  return stats_;
}

void KvServer::run_cycle(std::vector<QueryBatch>& batches) {
  Stopwatch watch;
  const std::uint64_t batch = next_batch_++;
  KvStore& store = *fragment_.master;
  std::map<std::uint32_t, std::vector<const QueryBatch*>> by_engine;
  for (const QueryBatch& b : batches) by_engine[b.engine].push_back(&b);

  KvServerStats counts;
  for (const auto& [engine, engine_batches] : by_engine) {
    ResultStream stream(channels_(engine), priority_);
    StartBatch start;
    start.table = fragment_.table + kKeyValueTableOffset;  // answers come from the key-value backend
    start.fragment = fragment_.fragment;
    start.batch = batch;
    start.engine = engine;
    std::vector<const StorageQuery*> queries;
    std::vector<std::uint16_t> columns;
    for (const QueryBatch* b : engine_batches) {
      start.engine_batches.push_back(b->engine_batch);
      for (const StorageQuery& q : b->queries) {
        if (q.kind == QueryKind::select) {
          throw Error("table " + fragment_.rows.schema().name + "'s key-value backend got a selection; those go to "
                      "its scan backend");
        }
        queries.push_back(&q);
        start.queries.push_back(q.id);
        columns.insert(columns.end(), q.projection.begin(), q.projection.end());
      }
    }
    start.layout = ResultLayout::general;
    start.record = RecordLayout::of(store.schema(), columns, queries.size());
    stream.send_start(start);

    ResultWriter writer(stream, start.table, fragment_.fragment, batch, start.record, ResultLayout::general,
                        std::size_t{64} << 10);
    const RecordLayout& all = store.record();
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const StorageQuery& q = *queries[i];
      if (q.kind == QueryKind::update) {
        store.update(q.key, q.update_column, q.update_value);
        ++counts.updates;
        continue;
      }
      ++counts.lookups;
      const std::optional<std::size_t> row = store.find(q.key);
      if (!row) continue;
      ++counts.found;
      std::byte* slot = writer.append(q.key);
      std::memset(slot, 0, start.record.bitset_bytes);
      // The slot follows an 8-byte key in a byte stream: not aligned for a uint64_t; one byte of the bitset is.
      slot[i / 8] |= static_cast<std::byte>(1u << (i % 8));
      const std::byte* source = store.record(*row);
      std::byte* record = slot + start.record.bitset_bytes;
      for (std::size_t c = 0; c < start.record.columns.size(); ++c) {
        const std::uint16_t column = start.record.columns[c];
        std::memcpy(record + start.record.offsets[c], source + all.offsets[column], start.record.widths[c]);
      }
    }
    writer.flush(true);
    counts.results += writer.counts();
  }

  std::lock_guard lock(stats_mutex_);
  ++stats_.cycles;
  stats_.lookups += counts.lookups;
  stats_.found += counts.found;
  stats_.updates += counts.updates;
  stats_.results += counts.results;
  stats_.cycle_time.add(static_cast<std::uint64_t>(watch.seconds() * 1e9));
}

}  // namespace hpcdb
