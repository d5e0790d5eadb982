#pragma once
// A query engine: the stub clients of every table (scan backends, and the
// key-value backend of the key-value table), the always-on operators (star
// queries; point queries), the handler that takes results off the message
// layer and hands them to the stub clients, and the engine's side of the
// connection to the storage engines: HELLO when it starts, heartbeats while
// it runs, DONE when it will ask nothing more. Plans name tables; the
// placement decides which ranks the stub clients talk to, and a fragment in
// this very process is reached by a function call.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "hpcdb/net/messaging/message_layer.hpp"
#include "hpcdb/query/lookup_operator.hpp"
#include "hpcdb/query/star_query_operator.hpp"
#include "hpcdb/query/stub_client.hpp"
#include "hpcdb/storage/catalog.hpp"
#include "hpcdb/storage/deployment.hpp"
#include "hpcdb/storage/layer_channels.hpp"

namespace hpcdb {

struct QueryEngineConfig {
  StarOperatorConfig star;
  bool priorities = true;  // point queries latency-sensitive
  int kv_table = -1;       // the table whose key-value backend point queries use (-1: none)
  double heartbeat = 1;    // seconds between heartbeats to the storage engines
};

struct QueryEngineStats {
  StarOperatorStats star;
  LookupOperatorStats lookups;
  StubClientCounts stubs;  // all tables
};

class QueryEngine {
 public:
  // `local_storage`: delivers a message to the storage engine in this
  // process (local deployment), or empty.
  QueryEngine(MessageLayer& layer, const Deployment& deployment, const Placement& placement, const Catalog& catalog,
              const QueryEngineConfig& config, int engine, ValueRenderer render,
              std::function<void(std::span<const std::byte>)> local_storage);
  ~QueryEngine();
  QueryEngine(const QueryEngine&) = delete;
  QueryEngine& operator=(const QueryEngine&) = delete;

  int engine() const { return engine_; }
  // Starts the operators and says HELLO to every storage engine.
  void connect();
  // A message from storage engine rank `source`.
  void receive(int source, std::unique_ptr<ReceivedPayload> message);
  StarQueryOperator& star() { return *star_; }
  LookupOperator* lookups() { return lookups_.get(); }
  // Heartbeats when due; rethrows an operator's or the handler's failure.
  void tick();
  // Stops the operators and says DONE to every storage engine.
  void disconnect();
  QueryEngineStats stats() const;
  // Seconds since storage rank `rank` was last heard from.
  double silence(int rank) const;

 private:
  void notify(BatchMessage kind);
  void send_to_storage(int rank, std::span<const std::byte> message, Priority priority);
  QueryId next_query_id();

  MessageLayer& layer_;
  const Deployment& deployment_;
  QueryEngineConfig config_;
  int engine_;
  std::function<void(std::span<const std::byte>)> local_storage_;
  std::vector<int> storage_ranks_;
  std::vector<std::unique_ptr<StubClient>> stubs_;
  std::map<std::uint32_t, StubClient*> by_table_;
  std::unique_ptr<StarQueryOperator> star_;
  std::unique_ptr<LookupOperator> lookups_;
  std::mutex id_mutex_;
  QueryIdSpace ids_;
  std::vector<std::atomic<std::int64_t>> last_heard_ns_;  // by rank
  std::chrono::steady_clock::time_point last_heartbeat_;
  mutable std::mutex failure_mutex_;
  std::exception_ptr failure_;
  bool connected_ = false;
};

}  // namespace hpcdb
