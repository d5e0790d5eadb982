#include "hpcdb/model/shuffle_model.hpp"

#include <algorithm>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

void require_positive(double value, const std::string& what) {
  if (!(value > 0)) throw UsageError("shuffle model: " + what + " must be positive");
}

void validate(const ShuffleModelSetting& s, const ShuffleRates& r) {
  require_positive(s.ranks, "the rank count");
  require_positive(s.machines, "the machine count");
  require_positive(s.threads_per_rank, "threads per rank");
  require_positive(s.row_bytes, "the row width");
  require_positive(s.wire_bytes_per_row, "the bytes per row on the wire");
  if (s.machines > s.ranks) throw UsageError("shuffle model: more machines than ranks");
  if (s.rows < 0 || s.busiest_receive_share < 0 || s.busiest_receive_share > 1 || s.copies_on_node < 0) {
    throw UsageError("shuffle model: rows, receive share (0 to 1) and copies must not be negative");
  }
  for (const auto& [rates, name] : {std::pair{&r.count, "P_count"}, std::pair{&r.partition, "P_partition"},
                                    std::pair{&r.consume, "P_consume"}}) {
    require_positive(rates->rows_per_second_16, std::string(name) + " at 16-byte rows");
    require_positive(rates->rows_per_second_64, std::string(name) + " at 64-byte rows");
  }
  const double ranks_per_machine = s.ranks / s.machines;
  if (ranks_per_machine > 1 && s.copies_on_node > 0 && !(r.copy_bandwidth > 0)) {
    throw UsageError("shuffle model: the calibration has no copy bandwidth between ranks of a node (calibrate with 2 "
                     "or more ranks on one node)");
  }
  if (s.machines > 1 && !(r.network_bandwidth > 0)) {
    throw UsageError("shuffle model: the calibration has no network bandwidth (calibrate on 2 or more nodes)");
  }
}

}  // namespace

double WidthRates::seconds_per_row(double row_bytes) const {
  const double at16 = 1.0 / rows_per_second_16;
  const double at64 = 1.0 / rows_per_second_64;
  // Through both calibrated points; never below the 16-byte time (narrower rows are refused anyway).
  return std::max(at16, at16 + (at64 - at16) * (row_bytes - 16) / 48);
}

ModelPrediction predict_shuffle(const ShuffleModelSetting& s, const ShuffleRates& r) {
  validate(s, r);
  const double rows_in = s.rows / s.ranks;
  const double share = s.busiest_receive_share > 0 ? s.busiest_receive_share : 1.0 / s.ranks;
  const double ranks_per_machine = s.ranks / s.machines;
  // The busiest rank receives `share` of every rank's rows: from the other
  // ranks of its node that many are copied there. A machine's link carries
  // its rows for other machines out, and the rows for its own ranks in
  // (the busier direction counts).
  const double bytes_on_node = rows_in * share * (ranks_per_machine - 1) * s.wire_bytes_per_row;
  const double machine_share = std::min(1.0, share * ranks_per_machine);
  const double bytes_off_machine =
      std::max(s.rows / s.machines, s.rows * machine_share) * (s.machines - 1) / s.machines * s.wire_bytes_per_row;
  const double threads = s.threads_per_rank;

  ModelPrediction m;
  m.network_shares_cores = r.network_shares_cores && s.machines > 1;
  const double route = rows_in * r.partition.seconds_per_row(s.row_bytes) / threads;
  const double consume = s.rows * share * r.consume.seconds_per_row(s.row_bytes) / threads;
  const double copy = bytes_on_node > 0 && s.copies_on_node > 0 ? bytes_on_node * s.copies_on_node / r.copy_bandwidth : 0;
  const double network = bytes_off_machine > 0 ? bytes_off_machine / r.network_bandwidth : 0;
  if (!s.streaming) {
    m.phases.push_back({"count", rows_in * r.count.seconds_per_row(s.row_bytes) / threads});
  }
  m.phases.push_back({"partition", route});
  m.phases.push_back({"copy", copy});
  m.phases.push_back({"network", network});
  m.phases.push_back({"consume", consume});
  const double compute = (s.streaming ? 0 : m.seconds_of("count")) + route + copy + consume;
  m.network_bound = network > compute;
  if (!s.streaming || m.network_shares_cores) {
    m.seconds = compute + network;
  } else {
    m.seconds = std::max(compute, network);
  }
  if (s.machines > 1) m.network_rate_per_thread = r.network_bandwidth / s.wire_bytes_per_row / (ranks_per_machine * threads);
  return m;
}

}  // namespace hpcdb
