#pragma once
// The radix join's options (what the command line sets), checked by validate().
#include <cstddef>
#include <string>

#include "hpcdb/join/join_config.hpp"
#include "hpcdb/join/radix/staged_exchange_config.hpp"

namespace hpcdb {

enum class Assignment { round_robin, skew_aware };

std::string to_string(Assignment value);  // round-robin, skew-aware
Assignment parse_assignment(const std::string& text);

struct RadixJoinConfig : JoinBasics {
  unsigned network_bits = 0;  // radix bits of the network pass; 0 = chosen from cache size and ranks
  unsigned local_bits = 0;    // radix bits of the local pass; 0 = chosen (may be none)
  std::size_t buffer_bytes = 64 * 1024;  // one-sided send buffer
  unsigned buffers_per_partition = 2;
  Assignment assignment = Assignment::round_robin;
  unsigned threads = 1;       // worker threads per rank
  bool force_put = false;     // MPI_Put even towards co-located ranks
  bool share_node_work = true;  // co-located ranks share input chunks and partitions
  unsigned input_chunks = 0;    // chunks per rank fragment and relation; 0 = chosen from the sizes
  // Streaming (default): partitions leave as send buffers fill, overlapped
  // with partitioning. Scheduled: partitioned locally first, then shipped
  // whole in a schedule's order (staged_exchange.hpp).
  bool scheduled = false;
  ScheduledExchangeConfig exchange;
};

void validate(const RadixJoinConfig& config);

}  // namespace hpcdb
