// Priorities and ordering: under the strict policy every latency-sensitive
// message is handled before any best-effort one that waited with it; under
// the weighted policy best-effort messages are not starved; (stream,
// sequence) restores sending order however messages arrive.
#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <numeric>
#include <random>

#include "hpcdb/net/messaging/message_layer.hpp"
#include "hpcdb/net/messaging/sequence_reorderer.hpp"
#include "net/messaging/traffic_ledger.hpp"
#include "net/test_cluster.hpp"

namespace hpcdb::testing {
namespace {

constexpr EndpointId kOrderedData = 3;
constexpr int kPerClass = 40;

struct HandlingOrder {
  std::mutex mutex;
  std::vector<Priority> classes;  // of rank 0's messages, as handled
  // Latency-sensitive messages handled before the first best-effort one, and
  // best-effort ones handled before the last latency-sensitive one.
  std::pair<int, int> summary() {
    std::lock_guard lock(mutex);
    const auto first_best_effort = std::find(classes.begin(), classes.end(), Priority::best_effort);
    const auto last_latency = std::find(classes.rbegin(), classes.rend(), Priority::latency);
    const int latency_first = static_cast<int>(std::count(classes.begin(), first_best_effort, Priority::latency));
    const int overtaking = static_cast<int>(std::count(last_latency, classes.rend(), Priority::best_effort));
    return {latency_first, overtaking};
  }
};

// Rank 0 queues kPerClass best-effort messages, then kPerClass latency-sensitive
// ones, to every rank (itself too), before any of them can go; it writes them
// all out while the others wait, then everyone handles what arrived.
std::pair<int, int> handling_order(PriorityPolicy policy, unsigned weight) {
  const Cluster& c = cluster();
  MessageLayerConfig config;
  config.threads = 0;  // progress only where the test says
  config.ring_bytes = 64 << 10;
  config.threshold = 1024;
  config.head_batch = 1;
  config.priority_policy = policy;
  config.best_effort_weight = weight;
  HandlingOrder order;
  TrafficLedger ledger(c.size());
  MessageLayer layer(c, config);
  layer.register_handler(kOrderedData, [&](Message& m) {
    ledger.note_received(m.source(), m.payload());
    if (m.source() != 0) return;
    std::lock_guard lock(order.mutex);
    order.classes.push_back(m.priority());
  });
  if (c.rank() == 0) {
    std::mt19937_64 rng(1);
    for (Priority p : {Priority::best_effort, Priority::latency}) {
      for (int k = 0; k < kPerClass; ++k) {
        for (int t = 0; t < c.size(); ++t) {
          OutgoingBuffer b = layer.acquire(100);
          fill_payload(b.data(), 100, rng());
          ledger.note_sent(t, {b.data(), 100});
          layer.send(std::move(b), t, kOrderedData, {.priority = p});
        }
      }
    }
    const auto everything = static_cast<std::uint64_t>(2 * kPerClass * c.size());
    for (;;) {
      const MessageLayerStats s = layer.stats();
      if (s.ring_sent[0].messages + s.ring_sent[1].messages == everything) break;
      layer.progress();
    }
  }
  MPI_Barrier(c.world());
  layer.drain();
  EXPECT_EQ(ledger.settle(c.world()), "");
  const auto result = order.summary();
  EXPECT_EQ(order.classes.size(), static_cast<std::size_t>(2 * kPerClass));
  return result;
}

TEST(MessagePriority, StrictHandlesEveryLatencySensitiveMessageFirst) {
  const auto [latency_first, overtaking] = handling_order(PriorityPolicy::strict, 1);
  EXPECT_EQ(latency_first, kPerClass);
  EXPECT_EQ(overtaking, 0);
}

TEST(MessagePriority, WeightedLetsBestEffortThrough) {
  const auto [latency_first, overtaking] = handling_order(PriorityPolicy::weighted, 2);
  // At most two batches (of one message) of latency-sensitive messages per
  // best-effort batch, when sending and when handling.
  EXPECT_LE(latency_first, 2);
  EXPECT_GT(overtaking, kPerClass / 4);
}

// Under load, with network threads: rank 0 queues a flood of best-effort
// messages to rank 1 through a small ring, and then latency-sensitive
// markers, while its network thread is already sending the flood. Rank 1's
// handler holds its network thread at the first message until rank 0 has
// queued the markers, so that, however fast either rank runs, all but the
// ring's worth of the flood still waits in rank 0's queue when the markers
// join it. Each marker must overtake what of the flood still waits: rank 1
// handles it before a ring's worth (kRingHolds) more of the flood, instead of
// after the whole flood as when sent best-effort.
TEST(MessagePriority, LatencySensitiveOvertakesAFloodWithNetworkThreads) {
  const Cluster& c = cluster();
  if (c.size() < 2) GTEST_SKIP() << "needs a sender and a receiver";
  constexpr int kFlood = 2000;
  constexpr int kMarkers = 4;
  constexpr std::size_t kFloodBytes = 512;
  MessageLayerConfig config;
  config.threads = 1;
  config.threshold = 1024;
  config.ring_bytes = 16 << 10;
  // What the ring holds of the flood while rank 1 is held (records are at
  // least their payload), with as much again for what rank 1's thread takes
  // from it between two looks at the markers' ring.
  constexpr int kRingHolds = 2 * (16 << 10) / static_cast<int>(kFloodBytes);
  static_assert(kRingHolds < kFlood / 4);
  TrafficLedger ledger(c.size());
  std::mutex mutex;
  std::condition_variable markers_queued_changed;
  bool markers_queued = false;
  int flood_handled = 0;
  std::vector<int> flood_before_marker;  // at rank 1
  MessageLayer layer(c, config);
  layer.register_handler(kOrderedData, [&](Message& m) {
    ledger.note_received(m.source(), m.payload());
    std::unique_lock lock(mutex);
    markers_queued_changed.wait(lock, [&] { return markers_queued; });
    if (m.priority() == Priority::latency) {
      flood_before_marker.push_back(flood_handled);
    } else {
      ++flood_handled;
    }
  });
  if (c.rank() == 0) {
    std::vector<OutgoingBuffer> flood;
    for (int k = 0; k < kFlood; ++k) {
      flood.push_back(layer.acquire(kFloodBytes));
      fill_payload(flood.back().data(), kFloodBytes, mix(static_cast<std::uint64_t>(k)));
      ledger.note_sent(1, {flood.back().data(), kFloodBytes});
    }
    for (OutgoingBuffer& b : flood) layer.send(std::move(b), 1, kOrderedData, {.priority = Priority::best_effort});
    for (int k = 0; k < kMarkers; ++k) {
      OutgoingBuffer b = layer.acquire(64);
      fill_payload(b.data(), 64, mix(1000000u + static_cast<std::uint64_t>(k)));
      ledger.note_sent(1, {b.data(), 64});
      layer.send(std::move(b), 1, kOrderedData, {.priority = Priority::latency});
    }
  }
  MPI_Barrier(c.world());  // rank 0 has queued everything
  {
    std::lock_guard lock(mutex);
    markers_queued = true;
  }
  markers_queued_changed.notify_all();
  layer.drain();
  EXPECT_EQ(ledger.settle(c.world()), "");
  if (c.rank() == 1) {
    ASSERT_EQ(flood_before_marker.size(), static_cast<std::size_t>(kMarkers));
    EXPECT_EQ(flood_handled, kFlood);
    for (int before : flood_before_marker) {
      EXPECT_LE(before, kRingHolds) << "a marker waited behind the flood (" << kFlood << " messages)";
    }
  }
}

// Sends, to every rank, stream `stream`'s messages 0..n-1 in `order`, with
// sizes that alternate between the ring and the two-sided path.
void send_stream(MessageLayer& layer, TrafficLedger& ledger, std::uint32_t stream, const std::vector<std::uint64_t>& order) {
  const int ranks = layer.ranks();
  for (std::uint64_t seq : order) {
    for (int t = 0; t < ranks; ++t) {
      const std::size_t size = seq % 3 == 0 ? 5000 + seq : 8 + seq % 200;
      OutgoingBuffer b = layer.acquire(size);
      fill_payload(b.data(), size, mix(stream * 1000003ull + seq));
      std::memcpy(b.data(), &seq, sizeof seq);
      ledger.note_sent(t, {b.data(), size});
      layer.send(std::move(b), t, kOrderedData, {.stream = stream, .sequence = seq});
    }
  }
}

struct OrderCheck {
  std::mutex mutex;
  std::map<std::pair<int, std::uint32_t>, std::uint64_t> next;
  int violations = 0;
  void see(const Message& m) {
    std::uint64_t in_payload = 0;
    std::memcpy(&in_payload, m.payload().data(), sizeof in_payload);
    std::lock_guard lock(mutex);
    std::uint64_t& expected = next[{m.source(), m.stream()}];
    if (m.sequence() != expected || in_payload != expected) ++violations;
    ++expected;
  }
};

TEST(MessageOrder, ReordererRestoresShuffledStreams) {
  const Cluster& c = cluster();
  MessageLayerConfig config;
  config.threads = 2;
  config.ring_bytes = 32 << 10;
  config.threshold = 2048;
  TrafficLedger ledger(c.size());
  OrderCheck check;
  SequenceReorderer reorderer([&](Message& m) {
    check.see(m);
    ledger.note_received(m.source(), m.payload());
  });
  MessageLayer layer(c, config);
  layer.register_handler(kOrderedData, [&](Message& m) { reorderer.push(m); });
  constexpr std::uint64_t kMessages = 120;
  std::vector<std::uint64_t> order(kMessages);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(static_cast<unsigned>(c.rank())));
  send_stream(layer, ledger, 1, order);                                     // shuffled on purpose
  std::iota(order.begin(), order.end(), 0);
  send_stream(layer, ledger, 2, order);                                     // in order, mixed paths
  layer.drain();
  EXPECT_EQ(check.violations, 0);
  EXPECT_EQ(reorderer.waiting(), 0u);
  EXPECT_GT(reorderer.out_of_order(), 0u);
  EXPECT_EQ(ledger.settle(c.world()), "");
}

}  // namespace
}  // namespace hpcdb::testing
