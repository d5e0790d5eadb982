#pragma once
// What one rank's message layer did: per priority class and path, messages
// and payload bytes sent and handled, and the mechanisms' own counts.
#include <array>
#include <cstdint>

#include "hpcdb/net/messaging/message_layer_config.hpp"

namespace hpcdb {

struct PathCounts {
  std::uint64_t messages = 0;
  std::uint64_t bytes = 0;  // payload
};

struct MessageLayerStats {
  // Indexed by priority class.
  std::array<PathCounts, kPriorityClasses> ring_sent{}, large_sent{};
  std::array<PathCounts, kPriorityClasses> ring_received{}, large_received{};
  std::uint64_t ring_puts = 0;          // MPI_Put calls for records (zero-copy: one per message)
  std::uint64_t head_publications = 0;  // after a batch
  std::uint64_t tail_publications = 0;  // after a snapshot
  std::uint64_t ring_full_waits = 0;    // a batch stopped because the ring was full
  std::uint64_t waitalls = 0;           // completions of pending MPI_Isends
  std::uint64_t kept_copies = 0;        // ring messages a handler kept (copied out)
  std::uint64_t buffers_acquired = 0;
  std::uint64_t buffers_reused = 0;     // from a size class's stack
  std::uint64_t pool_bytes_held = 0;
  std::uint64_t pool_peak_bytes = 0;
  std::uint64_t window_bytes = 0;
};

}  // namespace hpcdb
