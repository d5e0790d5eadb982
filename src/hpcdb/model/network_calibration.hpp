#pragma once
// The network figures of the calibration (calibration.hpp), measured on the
// job's own layout: rank 0 -> 1 put bandwidth and latency (through shared
// memory too when both share a node), every rank putting to all ranks on
// other nodes at once, the cost of opening the joins' receive windows, and
// the message layer's hybrid threshold. Every function is collective.
#include <cstddef>
#include <vector>

#include "hpcdb/model/calibration.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// Rank 0 writes to rank 1: 64 KiB MPI_Rput bandwidth and 8-byte put latency,
// and a copy into rank 1's memory when both share a node (best of
// `repeat`); sets put_bandwidth, put_latency and shared_memory_bandwidth on
// every rank. Nothing with one rank.
void measure_put_rates(const Cluster& cluster, unsigned repeat, Calibration& c);

// Every rank puts 64 KiB chunks to every rank on other nodes at once (the
// join's all-to-all pattern); the bandwidth of a machine is the sum of its
// ranks' rates, and the slowest machine counts (best of `repeat`).
double concurrent_put_bandwidth(const Cluster& cluster, unsigned repeat);

// The medians below take at least three measurements, whatever `repeat`
// says (one or two give no median worth the name).
unsigned median_runs(unsigned repeat);

// Opening and closing the joins' receive windows on this layout (a
// collective MPI window when ranks on other nodes write into it): the median
// of median_runs(repeat), the slowest rank.
double window_setup_seconds(const Cluster& cluster, unsigned repeat);

// The message layer's hybrid threshold: rank 0 -> 1 bandwidth of the ring
// alone and of the two-sided path alone, interleaved, over sizes from 256
// bytes to 256 KiB (medians of median_runs(repeat)). The threshold is the
// last size after which the two-sided path is faster at every larger size.
struct ThresholdSweep {
  std::vector<std::size_t> sizes;
  std::vector<double> ring, two_sided;  // bytes/s, medians (rank 0's)
  std::size_t threshold = 0;            // on every rank
};

// The layers run without network threads (the calibration's MPI is not
// started for concurrent threads), which times the two paths themselves.
// Needs 2 or more ranks.
ThresholdSweep measure_message_threshold(const Cluster& cluster, unsigned repeat);

}  // namespace hpcdb
