#pragma once
// The analytical performance models of the distributed joins (thesis
// Eqs. 3.1-3.20): predicted time per phase from per-thread processing rates,
// the machine count, threads per machine and network bandwidth. Rates are in
// tuples per second per thread; the network bandwidth is converted to
// tuples with the on-the-wire tuple size (8 bytes when compressed).
// The models assume phases in sequence without interference: a lower bound.
#include <string>
#include <vector>

namespace hpcdb {

struct ModelSetting {
  double inner_tuples = 0;         // |R|
  double outer_tuples = 0;         // |S|
  double machines = 1;             // N_machines
  double threads_per_machine = 1;  // N_threads/machine
  double bandwidth_bytes = 0;      // bw per machine, bytes/s (0 = no network)
  double tuple_bytes = 8;          // bytes per tuple on the wire
  // The network's work runs on the cores that run the join (hosts emulated on
  // one machine, or TCP without offload): network and compute time add up
  // instead of overlapping.
  bool network_shares_cores = false;
  double window_seconds = 0;       // setting up the receive windows (calibrated; 0 = not modelled)
  // Radix join with a scheduled exchange: the network pass partitions into
  // local staging only, then every partition travels whole (network_exchange).
  bool staged_exchange = false;
};

struct RadixRates {
  double scan = 0;       // P_scan (histogram)
  double partition = 0;  // P_partition (one pass, local writes)
  double build = 0;      // P_build
  double probe = 0;      // P_probe
  unsigned passes = 1;   // d: one network pass plus d - 1 local passes
};

struct SortMergeRates {
  double scan = 0;        // P_scan (histogram and matching)
  double partition = 0;   // P_partition (local range partitioning)
  double sort_run = 0;    // P_sort_run(l)
  double merge = 0;       // P_merge (per merge level)
  double match = 0;       // scan rate of the matching phase (0 = P_scan, as Eq. 3.19)
  double run_length = 16384;  // l
  double fan_in = 16;         // N_fan-in
  double subranges = 1;       // key sub-ranges per worker, merged apart (1 = the thesis)
};

// The sort-based joins of the 2012 thesis (cyclo and broadcast): each rank
// sorts whole fragments and merge-joins visiting parts with its sorted R.
struct StreamJoinRates {
  double scan = 0;        // encoding pass, tuples/s
  double sort_run = 0;    // P_sort_run(l)
  double merge = 0;       // one two-way merge pass, tuples/s
  double match = 0;       // matching scan, tuples/s
  double run_length = 16384;
  bool presort = true;       // cyclo: parts travel sorted
  double chunk_tuples = 0;   // broadcast: tuples per chunk
  double lookup = 0;         // broadcast: chunk tuples/s through R's key directory (0: the matching scan's rate)
};

struct PhasePrediction {
  std::string name;
  double seconds = 0;
};

struct ModelPrediction {
  std::vector<PhasePrediction> phases;
  double seconds = 0;                 // sum of the phases
  bool network_bound = false;         // Eq. 3.3 (or its sort analogue)
  bool network_shares_cores = false;  // network and compute time added (ModelSetting)
  double network_rate_per_thread = 0; // P_network, Eq. 3.2 (tuples/s)
  double optimal_threads = 0;         // threads per machine that just saturate the network
  unsigned merge_levels_inner = 0;    // d_R (sort-merge)
  unsigned merge_levels_outer = 0;    // d_S (sort-merge)
  double seconds_of(const std::string& name) const;
};

ModelPrediction predict_radix_join(const ModelSetting& setting, const RadixRates& rates);
ModelPrediction predict_sort_merge_join(const ModelSetting& setting, const SortMergeRates& rates);
// Ranks form a ring; each forwards n-1 parts of |S|/n tuples to the next:
// network (n-1) |S_i| c (thesis 3.1), overlapped per cycle with the join.
ModelPrediction predict_cyclo_join(const ModelSetting& setting, const StreamJoinRates& rates);
// Every tuple of S leaves its owner once for all ranks: network |S| c
// (thesis 3.2), overlapped with sorting and joining the chunks.
ModelPrediction predict_broadcast_join(const ModelSetting& setting, const StreamJoinRates& rates);

}  // namespace hpcdb
