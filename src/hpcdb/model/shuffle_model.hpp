#pragma once
// The analytical model of the shuffle (exchange) operator: predicted time of
// one exchange from per-thread rates of the shuffle's own kernels (routing
// rows, partitioning them into batch buffers, the consumer), the copy
// bandwidth between ranks of a node and the network bandwidth per machine.
//
// Per rank, with n rows in, W-byte rows on the wire (plus the batch header's
// share) and the busiest rank receiving a share s of all rows:
//   route    = n / (T * P_partition(W))         partitioning into batch buffers
//   count    = n / (T * P_count(W))             the baseline's counting pass only
//   consume  = s * rows / (T * P_consume(W))    the consumer
//   copy     = bytes the busiest rank receives from its node * copies / B_copy
//   network  = bytes a machine sends to or receives from others / B_network
// A streaming design overlaps partitioning, copies and consumer with the
// network: max(route + copy + consume, network); the baseline runs its
// phases one after the other: count + route + copy + network + consume.
// When the network's work runs on the same cores (hosts emulated on one
// machine), the network time adds to the compute time in both.
// The rates at width W are interpolated from the calibrated widths (16 and
// 64 bytes; time per row is linear in W). The model is a lower bound: it
// assumes every thread its own core and no interference.
#include <string>
#include <vector>

#include "hpcdb/model/join_model.hpp"

namespace hpcdb {

// Per-thread rows/s of a shuffle kernel at two row widths.
struct WidthRates {
  double rows_per_second_16 = 0;  // 16-byte rows
  double rows_per_second_64 = 0;  // 64-byte rows
  // Seconds per row at `row_bytes`, linear in the width through both points.
  double seconds_per_row(double row_bytes) const;
};

struct ShuffleRates {
  WidthRates count;      // routing each row to its destination, counting only
  WidthRates partition;  // routing and storing rows into batch buffers
  WidthRates consume;    // the consumer reading every row (hpcdb shuffle's checksum)
  double copy_bandwidth = 0;     // bytes/s into another rank's memory on the node (0 = none measured)
  double network_bandwidth = 0;  // bytes/s per machine to other machines (0 = none measured)
  bool network_shares_cores = false;
};

struct ShuffleModelSetting {
  double rows = 0;  // over all ranks
  double row_bytes = 16;
  double wire_bytes_per_row = 16;  // with each batch's header spread over its rows
  double ranks = 1;
  double machines = 1;
  double threads_per_rank = 1;
  double busiest_receive_share = 0;  // share of all rows the busiest rank receives (0: 1/ranks)
  bool streaming = true;             // false: the counts-then-alltoallv baseline
  double copies_on_node = 1;         // copies of every byte sent to a rank of the same node
};

ModelPrediction predict_shuffle(const ShuffleModelSetting& setting, const ShuffleRates& rates);

}  // namespace hpcdb
