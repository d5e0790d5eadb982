#pragma once
// Options of the distributed join operators (what the command line sets),
// and the one place where each is checked: validate() throws a UsageError
// naming the command-line option. Every operator's plan validates its
// options first; the command validates them all before it reads any data.
#include <cstddef>
#include <cstdint>

#include "hpcdb/join/broadcast/udp_broadcast_config.hpp"
#include "hpcdb/join/injected_fault.hpp"
#include "hpcdb/join/radix/staged_exchange_config.hpp"

namespace hpcdb {

enum class Assignment { round_robin, skew_aware };
enum class Compression { automatic, off };
enum class SendOrder { shifted, natural };
enum class Splitters { equal, sampled };

// What every join operator takes besides its own knobs.
struct JoinBasics {
  Compression compression = Compression::automatic;
  bool keep_pairs = false;  // materialize <rid_r, rid_s> pairs
  InjectedFault fault;      // testing aid
};

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

struct SortMergeJoinConfig : JoinBasics {
  std::size_t run_length = 16384;  // tuples per sorted run
  unsigned merge_fan_in = 16;      // runs merged at once
  unsigned subranges = 0;          // key sub-ranges per rank, merged apart; 0 = chosen from the sizes
  SendOrder send_order = SendOrder::shifted;  // worker i starts with range i+1
  Splitters splitters = Splitters::equal;     // equal key ranges, or sampled splitters
  unsigned threads = 1;
  bool force_put = false;
  bool share_node_work = true;  // co-located ranks share the passes over the input
  unsigned input_chunks = 0;    // chunks per rank fragment and relation; 0 = chosen from the sizes
};

struct CycloJoinConfig : JoinBasics {
  bool presort = true;                     // S parts travel sorted; else each rank sorts every visiting part
  std::size_t chunk_bytes = 4 << 20;       // bytes per put of a part
};

// ring: point-to-point chunks forwarded along the ring of ranks (the
// default: every link carries every chunk once); ibcast: MPI_Ibcast, the
// tree MPI picks; udp: real UDP broadcast on the ranks' network segment.
enum class BroadcastTransport { ring, ibcast, udp };

struct BroadcastJoinConfig : JoinBasics {
  BroadcastTransport transport = BroadcastTransport::ring;
  std::size_t chunk_bytes = 1 << 20;  // bytes per broadcast chunk of S (udp: per joined batch)
  unsigned depth = 2;                 // ring, ibcast: chunks in flight ahead of the one being joined
  UdpBroadcastConfig udp;
};

void validate(const RadixJoinConfig& config);
void validate(const SortMergeJoinConfig& config);
void validate(const CycloJoinConfig& config);
void validate(const BroadcastJoinConfig& config);

}  // namespace hpcdb
