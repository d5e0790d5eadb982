#pragma once
// What each rank of an `hpcdb ssb` run measured, as JSON (storage engine,
// query engine, message layer) plus its latency histograms, and the
// collective that brings every rank's share to rank 0 with the histograms
// merged.
#include <nlohmann/json.hpp>

#include <array>

#include "hpcdb/core/latency_histogram.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/messaging/message_layer_stats.hpp"
#include "hpcdb/query/query_engine.hpp"
#include "hpcdb/query/ssb_workload.hpp"
#include "hpcdb/storage/storage_engine.hpp"

namespace hpcdb {

// Histograms: flights 1-4, all star queries, point queries.
constexpr int kSsbHistograms = 6;

struct SsbRankShare {
  nlohmann::ordered_json numbers;   // this rank's counters
  nlohmann::ordered_json answers = nlohmann::ordered_json::array();
  nlohmann::ordered_json updates = nlohmann::ordered_json::array();  // update logs of its key-value fragments
  std::array<LatencyHistogram, kSsbHistograms> histograms{};
};

nlohmann::ordered_json storage_numbers(const StorageStats& s, double load_seconds);
nlohmann::ordered_json engine_numbers(const QueryEngineStats& q, const ssb::WorkloadResult& w);
nlohmann::ordered_json layer_numbers(const MessageLayerStats& s);
nlohmann::ordered_json answer_json(const ssb::QueryAnswer& a, int engine);
// A fragment's update log: {"table", "fragment", "log": [[key, column, value], ...]}, the values as SQL sees them.
nlohmann::ordered_json update_log_json(const UpdateLog& log, const TableSchema& schema);
void add_histograms(SsbRankShare& share, const ssb::WorkloadResult& w);

struct SsbGathered {
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();  // every rank's numbers, by rank
  nlohmann::ordered_json answers = nlohmann::ordered_json::array();
  nlohmann::ordered_json updates = nlohmann::ordered_json::array();
  std::array<LatencyHistogram, kSsbHistograms> histograms{};
};

// Collective; the result is complete on rank 0 only.
SsbGathered gather(const Cluster& cluster, const SsbRankShare& share);

}  // namespace hpcdb
