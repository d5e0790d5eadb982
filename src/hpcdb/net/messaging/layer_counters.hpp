#pragma once
// The layer's counters as the network threads update them (relaxed atomics);
// snapshot() turns them into MessageLayerStats.
#include <array>
#include <atomic>
#include <cstdint>

#include "hpcdb/net/messaging/message_layer_stats.hpp"

namespace hpcdb {

struct AtomicPathCounts {
  std::atomic<std::uint64_t> messages{0};
  std::atomic<std::uint64_t> bytes{0};
  void add(std::uint64_t payload) {
    messages.fetch_add(1, std::memory_order_relaxed);
    bytes.fetch_add(payload, std::memory_order_relaxed);
  }
  PathCounts load() const { return {messages.load(std::memory_order_relaxed), bytes.load(std::memory_order_relaxed)}; }
};

struct LayerCounters {
  std::array<AtomicPathCounts, kPriorityClasses> ring_sent, large_sent, ring_received, large_received;
  std::atomic<std::uint64_t> ring_puts{0}, head_publications{0}, tail_publications{0}, ring_full_waits{0};
  std::atomic<std::uint64_t> waitalls{0}, kept_copies{0};

  static void bump(std::atomic<std::uint64_t>& c, std::uint64_t by = 1) { c.fetch_add(by, std::memory_order_relaxed); }

  MessageLayerStats snapshot() const {
    MessageLayerStats s;
    for (int c = 0; c < kPriorityClasses; ++c) {
      const auto i = static_cast<std::size_t>(c);
      s.ring_sent[i] = ring_sent[i].load();
      s.large_sent[i] = large_sent[i].load();
      s.ring_received[i] = ring_received[i].load();
      s.large_received[i] = large_received[i].load();
    }
    s.ring_puts = ring_puts.load();
    s.head_publications = head_publications.load();
    s.tail_publications = tail_publications.load();
    s.ring_full_waits = ring_full_waits.load();
    s.waitalls = waitalls.load();
    s.kept_copies = kept_copies.load();
    return s;
  }
};

}  // namespace hpcdb
