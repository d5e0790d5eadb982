#pragma once
// Library entry point: the Star Schema Benchmark on the decoupled storage
// engine. Storage ranks generate their table fragments and serve shared
// scans and point queries; query-engine ranks run closed-loop clients
// through their batch-cycle operators (shared hash joins and grouped
// aggregation); every rank's figures and the clients' answers are gathered
// at rank 0.
#include <cstdint>
#include <string>

#include "hpcdb/api/ssb_summary.hpp"
#include "hpcdb/core/injected_failure.hpp"
#include "hpcdb/data/ssb_scale.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/messaging/message_layer_config.hpp"
#include "hpcdb/query/query_engine.hpp"
#include "hpcdb/query/ssb_workload.hpp"
#include "hpcdb/storage/deployment.hpp"
#include "hpcdb/storage/storage_engine.hpp"

namespace hpcdb {

struct SsbRequest {
  ssb::Scale scale;
  std::uint64_t seed = 42;
  DeploymentMode mode = DeploymentMode::decoupled;
  int storage_engines = 1;
  std::string placement;  // tables to storage engines (Placement::parse); empty: every table everywhere
  StorageConfig storage;
  QueryEngineConfig query;
  ssb::WorkloadConfig workload;
  MessageLayerConfig layer;
  int late_engine = -1;  // testing aid: this query engine connects `late_by` seconds late
  double late_by = 2;
  InjectedFailure failure;  // testing aid: a rank that dies or stops some time into the run
  // Files the caller writes afterwards, checked first (report "-": standard output).
  std::string report_file;
  std::string answers_file;
};

// The deployment and placement a request runs on `ranks` ranks (UsageError when it cannot).
struct SsbLayout {
  Deployment deployment;
  Placement placement;
};
SsbLayout ssb_layout(const SsbRequest& request, int ranks);

// Collective; the result is complete on rank 0 only. Throws UsageError on
// every rank alike before the run; an error during the run ends the job
// from the rank that saw it.
SsbGathered run_ssb(const Cluster& cluster, const SsbRequest& request);

}  // namespace hpcdb
