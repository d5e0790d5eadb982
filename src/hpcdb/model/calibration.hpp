#pragma once
// Per-thread processing rates and network figures measured on this machine
// with the very kernels the joins run, kept as a JSON file that feeds the
// performance models.
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

#include "hpcdb/model/join_model.hpp"
#include "hpcdb/model/shuffle_model.hpp"

namespace hpcdb {

struct Calibration {
  double scan = 0;        // histogram pass, tuples/s
  double partition = 0;   // network-partitioning pass into local windows, tuples/s
  unsigned partition_bits = 11;
  double build = 0;       // cache-resident build, tuples/s
  double probe = 0;       // cache-resident probe, tuples/s
  double sort_run = 0;    // sorting runs of run_length, tuples/s
  double run_length = 16384;
  double merge = 0;       // one two-way merge pass, tuples/s
  double match = 0;       // matching scan, tuples/s
  double lookup = 0;      // a sparse sorted visitor through a key directory, visitor tuples/s (0: not measured)
  double put_bandwidth = 0;            // bytes/s, rank 0 -> rank 1 with 64 KiB MPI_Rput (0 = not measured)
  double put_latency = 0;              // seconds, one 8-byte put and its flush
  double shared_memory_bandwidth = 0;  // bytes/s, streaming into a co-located rank's window (0 = none)
  // Measured with every rank busy at once (kernels on all ranks, the slowest
  // rank's rate; puts from every rank to every rank on other nodes, bandwidth per
  // machine), i.e. under the load of a join on this very job layout.
  bool concurrent = false;
  // Ranks on different nodes ran under one kernel (emulated hosts): the
  // network's work ran on the same cores.
  bool network_shares_cores = false;
  double window_setup = 0;  // seconds to open and close the receive windows on this layout (slowest rank)
  // The message layer's hybrid threshold: the largest payload (bytes) that
  // the ring moved faster than the two-sided path, rank 0 -> 1 (0 = not measured).
  double message_threshold = 0;

  // The shuffle's kernels, rows/s per thread at 16- and 64-byte rows (0 in
  // files written before they were measured).
  WidthRates shuffle_count, shuffle_partition, shuffle_consume;

  bool has_shuffle_rates() const { return shuffle_partition.rows_per_second_16 > 0; }
  // The shuffle model's rates: on one node the copy bandwidth between its
  // ranks, between nodes the network bandwidth.
  ShuffleRates shuffle_rates() const {
    return {shuffle_count, shuffle_partition, shuffle_consume, shared_memory_bandwidth, put_bandwidth,
            network_shares_cores};
  }
  RadixRates radix_rates(unsigned passes) const { return {scan, partition, build, probe, passes}; }
  // A merge level of fan-in F runs as ceil(log2 F) two-way passes.
  SortMergeRates sort_merge_rates(double fan_in) const {
    return {scan, partition, sort_run, merge / std::ceil(std::log2(fan_in)), match, run_length, fan_in};
  }
};

nlohmann::ordered_json to_json(const Calibration& c);
Calibration calibration_from_json(const nlohmann::json& j);
Calibration read_calibration(const std::string& path);  // UsageError when missing or malformed

}  // namespace hpcdb
