#pragma once
// A storage engine: the table fragments the placement gives one storage
// rank, a stub server per fragment (shared scans) and, for the key-value
// table, a key-value stub server; the handler that takes query batches and
// engine notices off the message layer; and the liveness of the query
// engines it serves. It serves until every query engine has said it is done
// (a late one too), and ends the job with a message naming any engine that
// falls silent.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "hpcdb/core/process_memory.hpp"
#include "hpcdb/net/messaging/message_layer.hpp"
#include "hpcdb/storage/catalog.hpp"
#include "hpcdb/storage/kv_server.hpp"
#include "hpcdb/storage/layer_channels.hpp"
#include "hpcdb/storage/scan_server.hpp"

namespace hpcdb {

struct StorageConfig {
  ScanServerConfig scan;
  bool priorities = true;     // key-value results latency-sensitive
  int kv_table = -1;          // the table with a key-value backend (-1: none)
  double reply_timeout = 60;  // seconds a connected engine may stay silent
  double connect_timeout = 60;  // seconds until every engine must have connected
  double heartbeat = 1;       // seconds between heartbeats to the engines
  bool keep_update_log = false;  // the key-value backend logs every update (update_logs())
};

// Every update one fragment's key-value backend took, in the order its scan
// copy applied them.
struct UpdateLog {
  std::uint32_t table = 0;
  std::uint32_t fragment = 0;
  std::vector<LoggedUpdate> updates;
};

struct StorageStats {
  std::vector<std::pair<std::uint32_t, ScanServerStats>> scans;  // by table
  std::vector<std::pair<std::uint32_t, KvServerStats>> kv;
  std::uint64_t query_batches = 0;
  std::uint64_t fragment_bytes = 0;
  std::uint64_t fragment_rows = 0;
  std::uint64_t kv_bytes = 0;  // the key-value copies and their indexes
  ProcessMemory memory;        // of this process
};

class StorageEngine {
 public:
  // Loads this storage engine's fragments (`storage_index` of the
  // deployment's storage engines). `local_engine` receives the results for a
  // query engine in this process (local deployment), or is empty.
  StorageEngine(MessageLayer& layer, const Deployment& deployment, const Placement& placement, const Catalog& catalog,
                const StorageConfig& config, int storage_index, LocalReceiver local_engine);
  ~StorageEngine();
  StorageEngine(const StorageEngine&) = delete;
  StorageEngine& operator=(const StorageEngine&) = delete;

  // Starts the stub servers and takes messages (from the layer's endpoint
  // kStorageEndpoint, and through accept()) from now on.
  void start();
  // A message for this storage engine (from the network, or from a query
  // engine in this process).
  void accept(int source, std::span<const std::byte> payload);
  // One round of the storage engine's watch: rethrows an operator's or the
  // handler's failure, checks that connected engines are alive, sends
  // heartbeats when due. True once every query engine is done.
  bool poll();
  // poll() until every query engine is done.
  void serve();
  void stop();
  StorageStats stats() const;
  // With keep_update_log: each key-value fragment's log (after stop()).
  std::vector<UpdateLog> update_logs() const;
  const std::vector<std::unique_ptr<TableFragment>>& fragments() const { return fragments_; }

 private:
  struct EngineState {
    std::atomic<int> state{0};  // 0: not connected, 1: connected, 2: done
    std::atomic<std::uint64_t> last_heard_ns{0};
  };
  ResultChannel& channel_for(std::uint32_t engine);
  void check_engines();
  void send_heartbeats();

  MessageLayer& layer_;
  const Deployment& deployment_;
  StorageConfig config_;
  int index_;
  std::vector<std::unique_ptr<TableFragment>> fragments_;
  std::vector<std::unique_ptr<ScanServer>> scan_by_table_;  // by table id (null: not here)
  std::vector<std::unique_ptr<KvServer>> kv_by_table_;
  std::vector<std::unique_ptr<ResultChannel>> channels_;  // by engine
  std::vector<EngineState> engines_;
  std::atomic<std::uint64_t> query_batches_{0};
  std::atomic<bool> started_{false};
  std::uint64_t started_ns_ = 0;
  std::uint64_t last_heartbeat_ns_ = 0;
  mutable std::mutex failure_mutex_;
  std::exception_ptr failure_;  // of a message handler
};

}  // namespace hpcdb
