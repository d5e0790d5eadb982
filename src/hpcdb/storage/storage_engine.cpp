#include "hpcdb/storage/storage_engine.hpp"

#include <chrono>
#include <thread>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/process_memory.hpp"

namespace hpcdb {
namespace {

std::uint64_t now_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

}  // namespace

StorageEngine::StorageEngine(MessageLayer& layer, const Deployment& deployment, const Placement& placement,
                             const Catalog& catalog, const StorageConfig& config, int storage_index,
                             LocalReceiver local_engine)
    : layer_(layer),
      deployment_(deployment),
      config_(config),
      index_(storage_index),
      scan_by_table_(catalog.tables.size()),
      kv_by_table_(catalog.tables.size()),
      engines_(static_cast<std::size_t>(deployment.query_engines())) {
  for (int e = 0; e < deployment.query_engines(); ++e) {
    const int rank = deployment.query_rank(e);
    if (rank == layer.rank() && local_engine) {
      channels_.push_back(std::make_unique<LocalChannel>(layer, local_engine));
    } else {
      channels_.push_back(std::make_unique<LayerChannel>(layer, rank, kEngineEndpoint));
    }
  }
  const ChannelFor channels = [this](std::uint32_t engine) -> ResultChannel& { return channel_for(engine); };
  const Priority kv_priority = config.priorities ? Priority::latency : Priority::best_effort;
  for (std::size_t t = 0; t < catalog.tables.size(); ++t) {
    const int fragment = placement.fragment_on(t, storage_index);
    if (fragment < 0) continue;
    const CatalogTable& table = catalog.tables[t];
    const FragmentKeys keys = fragment_keys(table.keys, fragment, static_cast<int>(placement.engines_of(t).size()));
    ColumnTable rows = table.load(keys);
    if (table.cluster_column >= 0) rows.cluster_by(static_cast<std::size_t>(table.cluster_column));
    auto f = std::make_unique<TableFragment>(static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(fragment),
                                             std::move(rows));
    if (static_cast<int>(t) == config.kv_table) {
      f->master = std::make_unique<KvStore>(f->rows, table.primary_key);
      f->master->keep_log(config.keep_update_log);
      kv_by_table_[t] = std::make_unique<KvServer>(*f, kv_priority, channels);
    }
    scan_by_table_[t] = std::make_unique<ScanServer>(*f, config.scan, channels);
    fragments_.push_back(std::move(f));
  }
}

StorageEngine::~StorageEngine() { stop(); }

ResultChannel& StorageEngine::channel_for(std::uint32_t engine) {
  if (engine >= channels_.size()) throw Error("a query batch names query engine " + std::to_string(engine) + ", which does not exist");
  return *channels_[engine];
}

void StorageEngine::start() {
  for (auto& s : scan_by_table_) {
    if (s) s->start();
  }
  for (auto& s : kv_by_table_) {
    if (s) s->start();
  }
  started_.store(true);
  started_ns_ = last_heartbeat_ns_ = now_ns();
  layer_.register_handler(kStorageEndpoint, [this](Message& m) {
    try {
      accept(m.source(), m.payload());
    } catch (...) {
      std::lock_guard lock(failure_mutex_);
      if (!failure_) failure_ = std::current_exception();
    }
  });
}

void StorageEngine::accept(int source, std::span<const std::byte> payload) {
  const BatchMessage kind = message_kind(payload);
  if (kind == BatchMessage::query_batch) {
    QueryBatch batch = decode_query_batch_message(payload);
    if (batch.engine >= engines_.size() || deployment_.query_rank(static_cast<int>(batch.engine)) != source) {
      throw Error("rank " + std::to_string(source) + " sent a query batch as query engine " + std::to_string(batch.engine));
    }
    engines_[batch.engine].last_heard_ns.store(now_ns());
    ++query_batches_;
    const bool kv = batch.table >= kKeyValueTableOffset;
    const std::uint32_t table = kv ? batch.table - kKeyValueTableOffset : batch.table;
    if (table >= scan_by_table_.size() || (kv ? !kv_by_table_[table] : !scan_by_table_[table])) {
      throw Error("storage engine " + std::to_string(index_) + " (rank " + std::to_string(layer_.rank()) +
                  ") got a query batch for table " + std::to_string(table) + (kv ? "'s key-value backend" : "") +
                  ", which it does not hold");
    }
    if (kv) {
      kv_by_table_[table]->enqueue(std::move(batch));
    } else {
      scan_by_table_[table]->enqueue(std::move(batch));
    }
    return;
  }
  if (kind == BatchMessage::engine_hello || kind == BatchMessage::engine_done || kind == BatchMessage::heartbeat) {
    const EngineNotice notice = decode_notice(payload);
    if (notice.engine >= engines_.size() || deployment_.query_rank(static_cast<int>(notice.engine)) != source) {
      throw Error("rank " + std::to_string(source) + " speaks as query engine " + std::to_string(notice.engine));
    }
    EngineState& e = engines_[notice.engine];
    e.last_heard_ns.store(now_ns());
    if (kind == BatchMessage::engine_hello) e.state.store(std::max(e.state.load(), 1));
    if (kind == BatchMessage::engine_done) e.state.store(2);
    return;
  }
  throw Error("storage engine on rank " + std::to_string(layer_.rank()) + " got a message meant for a query engine");
}

void StorageEngine::send_heartbeats() {
  for (std::size_t e = 0; e < engines_.size(); ++e) {
    if (engines_[e].state.load() != 1) continue;
    const int rank = deployment_.query_rank(static_cast<int>(e));
    if (rank == layer_.rank()) continue;
    const std::vector<std::byte> bytes = encode_notice({BatchMessage::heartbeat, static_cast<std::uint32_t>(index_)});
    layer_.send_copy(bytes, rank, kEngineEndpoint, {.priority = Priority::latency});
  }
}

void StorageEngine::check_engines() {
  const std::uint64_t now = now_ns();
  for (std::size_t e = 0; e < engines_.size(); ++e) {
    const int rank = deployment_.query_rank(static_cast<int>(e));
    const int state = engines_[e].state.load();
    if (state == 0 && now - started_ns_ > static_cast<std::uint64_t>(config_.connect_timeout * 1e9)) {
      throw Error("query engine " + std::to_string(e) + " (rank " + std::to_string(rank) + ") did not connect to storage " +
                  "engine rank " + std::to_string(layer_.rank()) + " within " +
                  std::to_string(static_cast<int>(config_.connect_timeout)) + " s; is it still running?");
    }
    // A handler may have heard from the engine after `now` was read.
    const std::uint64_t heard = engines_[e].last_heard_ns.load();
    if (state == 1 && rank != layer_.rank() && now > heard &&
        now - heard > static_cast<std::uint64_t>(config_.reply_timeout * 1e9)) {
      throw Error("query engine " + std::to_string(e) + " (rank " + std::to_string(rank) + ") has sent nothing to storage " +
                  "engine rank " + std::to_string(layer_.rank()) + " for " +
                  std::to_string(static_cast<int>(config_.reply_timeout)) + " s (--reply-timeout); is it still running?");
    }
  }
}

bool StorageEngine::poll() {
  {
    std::lock_guard lock(failure_mutex_);
    if (failure_) std::rethrow_exception(failure_);
  }
  for (auto& s : scan_by_table_) {
    if (s) s->check();
  }
  for (auto& s : kv_by_table_) {
    if (s) s->check();
  }
  bool all_done = true;
  for (const EngineState& e : engines_) all_done &= e.state.load() == 2;
  if (all_done) return true;
  check_engines();
  if (now_ns() - last_heartbeat_ns_ >= static_cast<std::uint64_t>(config_.heartbeat * 1e9)) {
    send_heartbeats();
    last_heartbeat_ns_ = now_ns();
  }
  return false;
}

void StorageEngine::serve() {
  while (!poll()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

void StorageEngine::stop() {
  for (auto& s : scan_by_table_) {
    if (s) s->stop();
  }
  for (auto& s : kv_by_table_) {
    if (s) s->stop();
  }
}

std::vector<UpdateLog> StorageEngine::update_logs() const {
  std::vector<UpdateLog> logs;
  for (const auto& f : fragments_) {
    if (f->master) logs.push_back({f->table, f->fragment, f->master->log()});
  }
  return logs;
}

StorageStats StorageEngine::stats() const {
  StorageStats s;
  for (std::size_t t = 0; t < scan_by_table_.size(); ++t) {
    if (scan_by_table_[t]) s.scans.emplace_back(static_cast<std::uint32_t>(t), scan_by_table_[t]->stats());
    if (kv_by_table_[t]) s.kv.emplace_back(static_cast<std::uint32_t>(t), kv_by_table_[t]->stats());
  }
  s.query_batches = query_batches_.load();
  for (const auto& f : fragments_) {
    s.fragment_bytes += f->rows.bytes();
    s.fragment_rows += f->rows.rows();
    if (f->master) s.kv_bytes += f->master->bytes();
  }
  s.memory = read_process_memory();
  return s;
}

}  // namespace hpcdb
