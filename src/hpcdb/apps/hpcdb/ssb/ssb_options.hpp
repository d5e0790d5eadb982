#pragma once
// The options of `hpcdb ssb` and what they resolve to: the deployment, the
// storage and query engines' configurations and the workload.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "hpcdb/api/ssb.hpp"
#include "hpcdb/apps/hpcdb/message_layer_options.hpp"
#include "hpcdb/data/ssb_scale.hpp"
#include "hpcdb/query/query_engine.hpp"
#include "hpcdb/query/ssb_workload.hpp"
#include "hpcdb/storage/deployment.hpp"
#include "hpcdb/storage/storage_engine.hpp"

namespace hpcdb {

struct SsbOptions {
  double scale = 1;
  std::uint64_t seed = 42;
  std::string deployment;  // empty: local on one rank, decoupled on more
  int storage_ranks = 0;   // 0: 1 (decoupled) or every rank (local)
  std::string placement;
  unsigned clients = 64;
  double duration = 30;
  double warmup = 0;
  std::string queries = "random";
  unsigned rounds = 1;
  unsigned lookup_clients = 0;
  double lookup_think_ms = 0;
  double update_fraction = 0;
  std::string kv_table = "customer";
  std::string priorities = "auto";
  std::string semi_join_filters = "on";
  std::string tuple_free = "on";
  std::string piece_bytes = "1Mi";
  unsigned scan_threads = 0;  // 0: one per core
  std::string predicate_evaluation = "auto";
  unsigned cycle_queries = 64;
  unsigned cycles_in_flight = 2;
  std::string update_column;
  double reply_timeout = 60;
  std::string answers;
  std::string json;
  std::string stream_sql;
  unsigned stream_length = 100;
  int late_engine = -1;
  double late_by = 2;
  int fail_rank = -1;
  double fail_after = 2;
  std::string fail_how = "kill";
  MessageLayerOptions layer;
};


void add_ssb_options(CLI::App& command, SsbOptions& options);
// UsageError naming the option for anything that cannot work on `ranks` ranks.
SsbRequest resolve(const SsbOptions& options, int ranks);
bool on_off(const std::string& value, const std::string& option);

}  // namespace hpcdb
