// The message layer on 1-4 ranks: every message arrives exactly once with
// its content (checked against the senders' own ledger, not the layer's
// counters), through the ring, the two-sided path or both, with every
// threading and sending mode; boundary sizes; wrap-around; flow control
// under skew; handlers registered late; kept messages; bad parameters.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/messaging/message_layer.hpp"
#include "net/messaging/traffic_ledger.hpp"
#include "net/test_cluster.hpp"

namespace hpcdb::testing {
namespace {

constexpr EndpointId kData = 7;

struct NamedConfig {
  std::string name;
  MessageLayerConfig config;
};

MessageLayerConfig small_rings() {
  MessageLayerConfig c;
  c.ring_bytes = 16 << 10;  // small enough to wrap and fill often
  c.threshold = 2048;
  c.max_message = 256 << 10;
  c.pool_bytes = 64 << 20;
  c.stall_timeout = 60;
  return c;
}

std::vector<NamedConfig> every_mode() {
  std::vector<NamedConfig> modes;
  modes.push_back({"one thread", small_rings()});
  MessageLayerConfig c = small_rings();
  c.threads = 0;
  modes.push_back({"caller progress", c});
  c = small_rings();
  c.threads = 2;
  c.thread_mode = ThreadMode::specialised;
  modes.push_back({"two specialised threads", c});
  c = small_rings();
  c.threads = 3;
  c.thread_mode = ThreadMode::specialised;
  c.priority_policy = PriorityPolicy::weighted;
  modes.push_back({"three specialised threads, weighted", c});
  c = small_rings();
  c.threads = 2;
  modes.push_back({"two homogeneous threads", c});
  c = small_rings();
  c.threads = 2;
  c.idle_sleep_us = 100;
  modes.push_back({"two threads sleeping when idle", c});
  c = small_rings();
  c.coalesce = true;
  c.head_batch = 5;
  modes.push_back({"coalescing", c});
  c = small_rings();
  c.threshold = c.ring_bytes - 32;
  modes.push_back({"ring only", c});
  c = small_rings();
  c.threshold = 0;
  modes.push_back({"two-sided only", c});
  return modes;
}

void send_random(MessageLayer& layer, TrafficLedger& ledger, int target, std::size_t size, std::uint64_t seed,
                 SendOptions options = {}, EndpointId endpoint = kData) {
  OutgoingBuffer b = layer.acquire(size);
  ASSERT_EQ(b.size(), size);
  fill_payload(b.data(), size, seed);
  ledger.note_sent(target, {b.data(), size});
  layer.send(std::move(b), target, endpoint, options);
}

// A size drawn from tiny, ring-sized and two-sided-sized messages.
std::size_t mixed_size(std::mt19937_64& rng, std::size_t threshold) {
  switch (rng() % 5) {
    case 0: return rng() % 65;
    case 1:
    case 2: return rng() % (threshold + 1);
    case 3: return threshold + rng() % 3;
    default: return threshold + 1 + rng() % (64 << 10);
  }
}

void register_ledger(MessageLayer& layer, TrafficLedger& ledger) {
  layer.register_handler(kData, [&ledger](Message& m) { ledger.note_received(m.source(), m.payload()); });
}

TEST(MessageLayer, EveryMessageArrivesOnceInEveryMode) {
  const Cluster& c = cluster();
  for (const NamedConfig& mode : every_mode()) {
    TrafficLedger ledger(c.size());
    MessageLayer layer(c, mode.config);
    register_ledger(layer, ledger);
    std::mt19937_64 rng(1000 + static_cast<unsigned>(c.rank()));
    for (int k = 0; k < 150; ++k) {
      for (int t = 0; t < c.size(); ++t) {
        send_random(layer, ledger, t, mixed_size(rng, std::max<std::size_t>(mode.config.threshold, 64)), rng());
        if (mode.config.threads == 0) layer.progress();
      }
    }
    layer.drain();
    EXPECT_EQ(ledger.settle(c.world()), "") << mode.name;
    const MessageLayerStats s = layer.stats();
    const std::uint64_t sent = s.ring_sent[1].messages + s.large_sent[1].messages;
    EXPECT_EQ(sent, 150u * static_cast<unsigned>(c.size())) << mode.name;
    if (mode.config.threshold == 0) {
      EXPECT_EQ(s.ring_sent[1].messages, 0u) << mode.name;
      EXPECT_EQ(s.window_bytes, 0u) << mode.name;
    } else {
      EXPECT_GT(s.ring_sent[1].messages, 0u) << mode.name;
    }
    layer.close();
  }
}

TEST(MessageLayer, EmptyStreamsDrainAtOnce) {
  const Cluster& c = cluster();
  for (const NamedConfig& mode : every_mode()) {
    TrafficLedger ledger(c.size());
    MessageLayer layer(c, mode.config);
    register_ledger(layer, ledger);
    layer.drain();
    layer.drain();
    EXPECT_EQ(ledger.settle(c.world()), "") << mode.name;
    EXPECT_EQ(ledger.received_count(), 0u);
    const MessageLayerStats s = layer.stats();
    EXPECT_EQ(s.ring_received[0].messages + s.ring_received[1].messages + s.large_received[1].messages, 0u);
  }
}

TEST(MessageLayer, OneRankSendingNothing) {
  const Cluster& c = cluster();
  TrafficLedger ledger(c.size());
  MessageLayer layer(c, small_rings());
  register_ledger(layer, ledger);
  std::mt19937_64 rng(static_cast<unsigned>(c.rank()));
  const bool silent = c.rank() == c.size() - 1;
  for (int k = 0; k < 300 && !silent; ++k) send_random(layer, ledger, k % c.size(), mixed_size(rng, 2048), rng());
  layer.drain();
  EXPECT_EQ(ledger.settle(c.world()), "");
}

TEST(MessageLayer, AllRanksToOneRankWithFlowControl) {
  const Cluster& c = cluster();
  for (unsigned threads : {0u, 1u}) {
    MessageLayerConfig config = small_rings();
    config.ring_bytes = 4096;  // a handful of messages fill it: senders wait for the tail
    config.threshold = 1024;
    config.threads = threads;
    TrafficLedger ledger(c.size());
    MessageLayer layer(c, config);
    register_ledger(layer, ledger);
    std::mt19937_64 rng(77 + static_cast<unsigned>(c.rank()));
    for (int k = 0; k < 2000; ++k) {
      send_random(layer, ledger, 0, rng() % 1025, rng());
      if (threads == 0) layer.progress();
    }
    layer.drain();
    EXPECT_EQ(ledger.settle(c.world()), "") << threads << " threads";
    const MessageLayerStats s = layer.stats();
    if (c.rank() == 0) {
      EXPECT_EQ(ledger.received_count(), 2000u * static_cast<unsigned>(c.size()));
    }
    // 2000 records of ~560 bytes on average went through a 4 KiB ring: it
    // wrapped hundreds of times and its tail was published as often.
    EXPECT_GT(s.head_publications, 100u);
    if (c.rank() == 0) {
      EXPECT_GT(s.tail_publications, 100u);
    }
  }
}

TEST(MessageLayer, BoundarySizesTakeTheRightPath) {
  const Cluster& c = cluster();
  MessageLayerConfig config = small_rings();
  config.ring_bytes = 8192;
  for (std::size_t threshold : {std::size_t{1000}, config.ring_bytes - 32}) {
    config.threshold = threshold;
    TrafficLedger ledger(c.size());
    MessageLayer layer(c, config);
    register_ledger(layer, ledger);
    const int target = (c.rank() + 1) % c.size();
    std::mt19937_64 rng(5);
    // 0 bytes, the threshold exactly (the ring; for the second threshold a
    // record that fills the whole ring), one byte above (two-sided).
    for (int k = 0; k < 20; ++k) {
      send_random(layer, ledger, target, 0, rng());
      send_random(layer, ledger, target, threshold, rng());
      send_random(layer, ledger, target, threshold + 1, rng());
    }
    layer.drain();
    EXPECT_EQ(ledger.settle(c.world()), "") << "threshold " << threshold;
    const MessageLayerStats s = layer.stats();
    EXPECT_EQ(s.ring_sent[1].messages, 40u) << threshold;
    EXPECT_EQ(s.ring_sent[1].bytes, 20u * threshold) << threshold;
    EXPECT_EQ(s.large_sent[1].messages, 20u) << threshold;
    EXPECT_EQ(s.large_sent[1].bytes, 20u * (threshold + 1)) << threshold;
  }
}

TEST(MessageLayer, RingWrapsAroundManyTimesWithOddSizes) {
  const Cluster& c = cluster();
  for (bool coalesce : {false, true}) {
    MessageLayerConfig config = small_rings();
    config.ring_bytes = 4096;
    config.threshold = 1500;
    config.coalesce = coalesce;
    config.head_batch = 3;
    TrafficLedger ledger(c.size());
    MessageLayer layer(c, config);
    register_ledger(layer, ledger);
    std::mt19937_64 rng(9 + static_cast<unsigned>(c.rank()));
    std::size_t bytes = 0;
    for (int k = 0; k < 300 * c.size(); ++k) {
      const std::size_t size = 1 + 2 * (rng() % 700);  // odd sizes: records padded, gaps at the ring's end
      bytes += size;
      send_random(layer, ledger, (c.rank() + k) % c.size(), size, rng());
    }
    layer.drain();
    EXPECT_EQ(ledger.settle(c.world()), "") << (coalesce ? "coalescing" : "zero-copy");
    EXPECT_GT(bytes / static_cast<std::size_t>(c.size()), 20 * config.ring_bytes);  // each ring wrapped 20+ times
    if (coalesce) {
      EXPECT_LT(layer.stats().ring_puts, 300u * static_cast<unsigned>(c.size()));
    }
  }
}

TEST(MessageLayer, ConcurrentSendersAndHandlersThatReply) {
  const Cluster& c = cluster();
  MessageLayerConfig config = small_rings();
  config.threads = 2;
  TrafficLedger ledger(c.size());
  TrafficLedger replies(c.size());
  MessageLayer layer(c, config);
  constexpr EndpointId kReply = 8;
  // Every request is answered by its handler with a reply of half its size.
  layer.register_handler(kData, [&](Message& m) {
    ledger.note_received(m.source(), m.payload());
    const std::size_t size = m.payload().size() / 2;
    OutgoingBuffer b = layer.acquire(size);
    fill_payload(b.data(), size, payload_hash(m.payload()));
    replies.note_sent(m.source(), {b.data(), size});
    layer.send(std::move(b), m.source(), kReply, {.priority = Priority::latency});
  });
  layer.register_handler(kReply, [&](Message& m) { replies.note_received(m.source(), m.payload()); });
  std::vector<std::thread> senders;
  for (int t = 0; t < 3; ++t) {
    senders.emplace_back([&, t] {
      std::mt19937_64 rng(100 * static_cast<unsigned>(c.rank()) + static_cast<unsigned>(t));
      for (int k = 0; k < 200; ++k) send_random(layer, ledger, static_cast<int>(rng() % static_cast<unsigned>(c.size())), mixed_size(rng, 2048), rng());
    });
  }
  for (std::thread& t : senders) t.join();
  layer.drain();  // all requests handled: every reply is sent
  layer.drain();  // and handled
  EXPECT_EQ(ledger.settle(c.world()), "");
  EXPECT_EQ(replies.settle(c.world()), "");
}

// Every rank queues best-effort data and latency-sensitive requests for
// every rank, then drains; the requests' handlers reply (latency-sensitive)
// while the drain runs, so the replies reach each rank before the data
// (strict priority, both on the sending and on the receiving side). The
// drain must still wait for the data: a reply sent during the drain does
// not stand in for an earlier message still on its way.
TEST(MessageLayer, DrainWaitsForEarlierMessagesNotForRepliesSentDuringIt) {
  const Cluster& c = cluster();
  MessageLayerConfig config = small_rings();
  config.threads = 0;
  config.head_batch = 4;
  TrafficLedger data(c.size());
  TrafficLedger replies(c.size());
  MessageLayer layer(c, config);
  constexpr EndpointId kRequest = 8;
  constexpr EndpointId kReply = 9;
  layer.register_handler(kData, [&](Message& m) { data.note_received(m.source(), m.payload()); });
  layer.register_handler(kRequest, [&](Message& m) {
    send_random(layer, replies, m.source(), 16, mix(m.sequence()), {.priority = Priority::latency}, kReply);
  });
  layer.register_handler(kReply, [&](Message& m) { replies.note_received(m.source(), m.payload()); });
  MPI_Barrier(c.world());
  std::mt19937_64 rng(17 + static_cast<unsigned>(c.rank()));
  for (int t = 0; t < c.size(); ++t) {
    for (int k = 0; k < 40; ++k) send_random(layer, data, t, mixed_size(rng, config.threshold), rng());
    for (int k = 0; k < 40; ++k) {
      OutgoingBuffer b = layer.acquire(8);
      layer.send(std::move(b), t, kRequest, {.priority = Priority::latency, .sequence = rng()});
    }
  }
  layer.drain();
  EXPECT_EQ(data.settle(c.world()), "") << "data sent before the drain had not all been handled";
  layer.drain();  // the replies were sent during the first drain
  EXPECT_EQ(replies.settle(c.world()), "");
}

TEST(MessageLayer, MessagesWaitForALateHandler) {
  const Cluster& c = cluster();
  TrafficLedger ledger(c.size());
  MessageLayer layer(c, small_rings());
  constexpr EndpointId kLate = 99;
  std::mt19937_64 rng(3);
  for (int t = 0; t < c.size(); ++t) {
    for (int k = 0; k < 30; ++k) send_random(layer, ledger, t, mixed_size(rng, 2048), rng(), {}, kLate);
  }
  // Everything arrives before anyone registers (no drain: it would refuse):
  // each rank waits until its layer has received the 30 messages of every rank.
  const auto expected = static_cast<std::uint64_t>(30 * c.size());
  for (;;) {
    const MessageLayerStats s = layer.stats();
    std::uint64_t received = 0;
    for (std::size_t p = 0; p < s.ring_received.size(); ++p) received += s.ring_received[p].messages + s.large_received[p].messages;
    if (received == expected) break;
    ASSERT_LT(received, expected);
    if (!layer.progress()) std::this_thread::yield();
  }
  register_ledger(layer, ledger);  // kData: not these
  layer.register_handler(kLate, [&ledger](Message& m) { ledger.note_received(m.source(), m.payload()); });
  layer.drain();
  EXPECT_EQ(ledger.settle(c.world()), "");
}

TEST(MessageLayer, DrainRefusesMessagesWithoutAHandlerOnEveryRank) {
  const Cluster& c = cluster();
  MessageLayer layer(c, small_rings());
  const std::byte one{1};
  layer.send_copy({&one, 1}, 0, 1234);
  try {
    layer.drain();
    ADD_FAILURE() << "drain() accepted a message without a handler";
  } catch (const AgreedFailure& e) {
    EXPECT_NE(std::string(e.what()).find("endpoint 1234"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no handler"), std::string::npos) << e.what();
  }
  layer.register_handler(1234, [](Message&) {});  // so that closing drains cleanly
}

TEST(MessageLayer, KeptMessagesSurviveRingReuse) {
  const Cluster& c = cluster();
  MessageLayerConfig config = small_rings();
  config.ring_bytes = 4096;
  config.threshold = 1024;
  std::mutex mutex;
  std::vector<Message> kept;
  TrafficLedger ledger(c.size());
  MessageLayer layer(c, config);
  layer.register_handler(kData, [&](Message& m) {
    std::lock_guard lock(mutex);
    kept.push_back(std::move(m));  // out of the ring into a pool buffer
    EXPECT_TRUE(m.empty());
  });
  // Messages that arrive before their handler is registered are copied out
  // of the ring at once and are not kept copies: send only once every rank
  // has its handler.
  MPI_Barrier(c.world());
  std::mt19937_64 rng(11 + static_cast<unsigned>(c.rank()));
  for (int k = 0; k < 300; ++k) send_random(layer, ledger, (c.rank() + 1) % c.size(), mixed_size(rng, 1024), rng());
  layer.drain();
  // The ring has been overwritten many times since: the kept copies must not.
  for (const Message& m : kept) ledger.note_received(m.source(), m.payload());
  EXPECT_EQ(ledger.settle(c.world()), "");
  EXPECT_GT(layer.stats().kept_copies, 0u);
  kept.clear();  // back to the pool before the layer goes
}

TEST(MessageLayer, RejectsBadUseWithAClearMessage) {
  const Cluster& c = cluster();
  MessageLayerConfig config = small_rings();
  MessageLayer layer(c, config);
  try {
    layer.send_copy({}, c.size(), kData);
    ADD_FAILURE() << "sent to a rank outside the job";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot send to rank " + std::to_string(c.size())), std::string::npos);
  }
  EXPECT_THROW(layer.send_copy({}, -1, kData), UsageError);
  try {
    layer.acquire(config.max_message + 1);
    ADD_FAILURE() << "acquired a buffer above --max-message";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--max-message"), std::string::npos) << e.what();
  }
  OutgoingBuffer b = layer.acquire(10);
  EXPECT_THROW(b.shrink(11), UsageError);
  layer.register_handler(kData, [](Message&) {});
  layer.send(std::move(b), c.rank(), kData);
  EXPECT_THROW(layer.send(std::move(b), c.rank(), kData), UsageError);  // already sent
  EXPECT_THROW(layer.register_handler(kData, MessageHandler()), UsageError);
  layer.drain();
}

TEST(MessageLayer, BadConfigurationEndsEveryRankWithOneMessage) {
  const Cluster& c = cluster();
  MessageLayerConfig config = small_rings();
  config.threshold = config.ring_bytes;  // its record cannot fit
  try {
    MessageLayer layer(c, config);
    ADD_FAILURE() << "a threshold the ring cannot hold was accepted";
  } catch (const AgreedFailure& e) {
    EXPECT_EQ(e.exit_code(), 2);
    EXPECT_NE(std::string(e.what()).find("--threshold"), std::string::npos) << e.what();
  }
  config = small_rings();
  config.waitall_batch = 0;
  EXPECT_THROW(MessageLayer(c, config), AgreedFailure);
  config = small_rings();
  config.idle_sleep_us = 2'000'000;
  EXPECT_THROW(MessageLayer(c, config), AgreedFailure);
}

}  // namespace
}  // namespace hpcdb::testing
