#include "hpcdb/query/query_engine.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

QueryEngine::QueryEngine(MessageLayer& layer, const Deployment& deployment, const Placement& placement,
                         const Catalog& catalog, const QueryEngineConfig& config, int engine, ValueRenderer render,
                         std::function<void(std::span<const std::byte>)> local_storage)
    : layer_(layer),
      deployment_(deployment),
      config_(config),
      engine_(engine),
      local_storage_(std::move(local_storage)),
      ids_(static_cast<std::uint32_t>(engine), static_cast<std::uint32_t>(deployment.query_engines())),
      last_heard_ns_(static_cast<std::size_t>(layer.ranks())) {
  for (auto& t : last_heard_ns_) t.store(now_ns());
  for (int s = 0; s < deployment.storage_engines(); ++s) storage_ranks_.push_back(deployment.storage_rank(s));
  const BatchSender sender = [this](int rank, std::span<const std::byte> m, Priority p) { send_to_storage(rank, m, p); };
  for (std::size_t t = 0; t < catalog.tables.size(); ++t) {
    std::vector<int> ranks;
    for (int e : placement.engines_of(t)) ranks.push_back(deployment.storage_rank(e));
    stubs_.push_back(std::make_unique<StubClient>(static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(engine), ranks, sender));
    by_table_[static_cast<std::uint32_t>(t)] = stubs_.back().get();
    if (static_cast<int>(t) == config.kv_table) {
      const auto kv = static_cast<std::uint32_t>(t) + kKeyValueTableOffset;
      stubs_.push_back(std::make_unique<StubClient>(kv, static_cast<std::uint32_t>(engine), ranks, sender));
      by_table_[kv] = stubs_.back().get();
    }
  }
  const auto ids = [this] { return next_query_id(); };
  const auto silence = [this](int rank) { return this->silence(rank); };
  star_ = std::make_unique<StarQueryOperator>(by_table_, ids, std::move(render), silence, config.star);
  if (config.kv_table >= 0) {
    lookups_ = std::make_unique<LookupOperator>(*by_table_.at(static_cast<std::uint32_t>(config.kv_table) + kKeyValueTableOffset),
                                                config.priorities ? Priority::latency : Priority::best_effort, ids, silence,
                                                config.star.reply_timeout);
  }
}

QueryEngine::~QueryEngine() {
  if (lookups_) lookups_->stop();
  star_->stop();
}

QueryId QueryEngine::next_query_id() {
  std::lock_guard lock(id_mutex_);
  return ids_.next();
}

void QueryEngine::send_to_storage(int rank, std::span<const std::byte> message, Priority priority) {
  if (rank == layer_.rank() && local_storage_) {
    local_storage_(message);
    return;
  }
  layer_.send_copy(message, rank, kStorageEndpoint, {.priority = priority});
}

void QueryEngine::notify(BatchMessage kind) {
  const std::vector<std::byte> bytes = encode_notice({kind, static_cast<std::uint32_t>(engine_)});
  for (int rank : storage_ranks_) send_to_storage(rank, bytes, Priority::latency);
}

void QueryEngine::connect() {
  layer_.register_handler(kEngineEndpoint, [this](Message& m) {
    const int source = m.source();
    try {
      receive(source, std::make_unique<KeptMessage>(std::move(m)));
    } catch (...) {
      std::lock_guard lock(failure_mutex_);
      if (!failure_) failure_ = std::current_exception();
    }
  });
  star_->start();
  if (lookups_) lookups_->start();
  for (auto& t : last_heard_ns_) t.store(now_ns());
  notify(BatchMessage::engine_hello);
  last_heartbeat_ = std::chrono::steady_clock::now();
  connected_ = true;
}

void QueryEngine::receive(int source, std::unique_ptr<ReceivedPayload> message) {
  last_heard_ns_.at(static_cast<std::size_t>(source)).store(now_ns());
  const std::span<const std::byte> bytes = message->bytes();
  const BatchMessage kind = message_kind(bytes);
  if (kind == BatchMessage::heartbeat) return;
  std::uint32_t table = 0;
  if (kind == BatchMessage::start_batch) {
    if (bytes.size() < 5) throw Error("malformed START BATCH message: too short");
    std::memcpy(&table, bytes.data() + 1, 4);
  } else if (kind == BatchMessage::result) {
    if (bytes.size() < sizeof(ResultPieceHeader)) throw Error("malformed result piece: shorter than its header");
    std::memcpy(&table, bytes.data() + offsetof(ResultPieceHeader, table), 4);
  } else {
    throw Error("query engine on rank " + std::to_string(layer_.rank()) + " got a message meant for a storage engine");
  }
  const auto it = by_table_.find(table);
  if (it == by_table_.end()) throw Error("results arrived for table " + std::to_string(table) + ", which this engine does not use");
  it->second->receive(source, std::move(message));
}

void QueryEngine::tick() {
  {
    std::lock_guard lock(failure_mutex_);
    if (failure_) std::rethrow_exception(failure_);
  }
  star_->check();
  if (lookups_) lookups_->check();
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_heartbeat_).count() >= config_.heartbeat) {
    notify(BatchMessage::heartbeat);
    last_heartbeat_ = now;
  }
}

void QueryEngine::disconnect() {
  if (!connected_) return;
  if (lookups_) lookups_->stop();
  star_->stop();
  notify(BatchMessage::engine_done);
  connected_ = false;
}

double QueryEngine::silence(int rank) const {
  if (rank == layer_.rank() && local_storage_) return 0;
  return static_cast<double>(now_ns() - last_heard_ns_.at(static_cast<std::size_t>(rank)).load()) * 1e-9;
}

QueryEngineStats QueryEngine::stats() const {
  QueryEngineStats s;
  s.star = star_->stats();
  if (lookups_) s.lookups = lookups_->stats();
  for (const auto& stub : stubs_) {
    const StubClientCounts c = stub->counts();
    s.stubs.batches += c.batches;
    s.stubs.queries += c.queries;
    s.stubs.bytes_sent += c.bytes_sent;
    s.stubs.messages_received += c.messages_received;
    s.stubs.bytes_received += c.bytes_received;
    s.stubs.out_of_order += c.out_of_order;
  }
  return s;
}

}  // namespace hpcdb
