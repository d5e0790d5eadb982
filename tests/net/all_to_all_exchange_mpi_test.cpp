// The all-to-all exchange: every schedule over both transports delivers
// every piece to its place, and the synchronized schedule's rounds pair
// every rank with exactly one target and one source.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/all_to_all_exchange.hpp"
#include "hpcdb/net/duplicated_comm.hpp"
#include "net/test_cluster.hpp"

namespace hpcdb::testing {
namespace {

TEST(AllToAllSchedule, EveryRoundIsAPermutationWithoutSelf) {
  for (int ranks = 1; ranks <= 9; ++ranks) {
    for (int round = 0; round + 1 < ranks; ++round) {
      std::vector<int> receivers;
      for (int me = 0; me < ranks; ++me) {
        const std::vector<int> order = ring_order(me, ranks);
        ASSERT_EQ(order.size(), static_cast<std::size_t>(ranks - 1));
        ASSERT_NE(order[static_cast<std::size_t>(round)], me);
        receivers.push_back(order[static_cast<std::size_t>(round)]);
      }
      std::sort(receivers.begin(), receivers.end());
      std::vector<int> all(static_cast<std::size_t>(ranks));
      std::iota(all.begin(), all.end(), 0);
      EXPECT_EQ(receivers, all) << ranks << " ranks, round " << round;  // each receives from exactly one
    }
  }
}

TEST(AllToAllSchedule, RandomOrderSendsEveryChunkOnce) {
  const std::vector<std::uint64_t> chunks = {0, 5, 1, 0, 9};
  const std::vector<int> order = random_chunk_order(chunks, 3);
  ASSERT_EQ(order.size(), 15u);
  for (int t = 0; t < 5; ++t) {
    EXPECT_EQ(static_cast<std::uint64_t>(std::count(order.begin(), order.end(), t)), chunks[static_cast<std::size_t>(t)]);
  }
  EXPECT_NE(order, random_chunk_order(chunks, 4));
  EXPECT_THROW(parse_exchange_schedule("sometimes"), UsageError);
}

// Bytes rank `source` sends to `target`: an odd size and contents that name both.
std::size_t piece_bytes(int source, int target) { return static_cast<std::size_t>(source * 7 + target * 3) * 13 + 5; }
std::byte piece_byte(int source, int target, std::size_t i) {
  return static_cast<std::byte>((source * 31 + target * 17 + static_cast<int>(i % 251)) & 0xFF);
}

TEST(AllToAllExchange, EveryScheduleAndTransportDeliversEveryPiece) {
  const Cluster& c = cluster();
  const int me = c.rank(), ranks = c.size();
  // Rank t receives from sources 0..n-1 in order, each piece split in two
  // parts that land in reverse order.
  auto offset_at = [&](int target, int source) {
    std::size_t offset = 0;
    for (int s = 0; s < source; ++s) offset += piece_bytes(s, target);
    return offset;
  };
  std::size_t receive_bytes = offset_at(me, ranks);
  std::vector<std::vector<std::byte>> sent(static_cast<std::size_t>(ranks));
  AllToAllPlan plan;
  plan.outgoing.resize(static_cast<std::size_t>(ranks));
  plan.incoming.resize(static_cast<std::size_t>(ranks));
  for (int t = 0; t < ranks; ++t) {
    auto& bytes = sent[static_cast<std::size_t>(t)];
    for (std::size_t i = 0; i < piece_bytes(me, t); ++i) bytes.push_back(piece_byte(me, t, i));
    const std::size_t half = bytes.size() / 2, base = offset_at(t, me);
    plan.outgoing[static_cast<std::size_t>(t)] = {{bytes.data() + half, bytes.size() - half, base + half},
                                                   {bytes.data(), half, base}};
    const std::size_t in = piece_bytes(t, me), in_half = in / 2, in_base = offset_at(me, t);
    plan.incoming[static_cast<std::size_t>(t)] = {{nullptr, in - in_half, in_base + in_half}, {nullptr, in_half, in_base}};
  }
  // One communicator for every exchange in turn, as the radix join keeps it across runs.
  const DuplicatedComm comm(c.world());
  for (ExchangeTransport transport : {ExchangeTransport::put, ExchangeTransport::messages}) {
    for (ExchangeSchedule schedule :
         {ExchangeSchedule::unsynchronized, ExchangeSchedule::synchronized, ExchangeSchedule::random}) {
      for (std::size_t chunk : {std::size_t{1} << 20, std::size_t{7}}) {
        std::vector<std::byte> receive(receive_bytes, std::byte{0});
        AllToAllExchange exchange(c, comm.get(), receive, transport, schedule, chunk, 5);
        const ExchangeStats stats = exchange.run(plan);
        for (int s = 0; s < ranks; ++s) {
          for (std::size_t i = 0; i < piece_bytes(s, me); ++i) {
            ASSERT_EQ(receive[offset_at(me, s) + i], piece_byte(s, me, i))
                << "from " << s << " byte " << i << ", " << to_string(schedule) << ", chunk " << chunk;
          }
        }
        std::size_t out = 0;
        for (int t = 0; t < ranks; ++t) out += t == me ? 0 : piece_bytes(me, t);
        EXPECT_EQ(stats.bytes, out);
        EXPECT_EQ(stats.rounds, schedule == ExchangeSchedule::synchronized ? static_cast<unsigned>(ranks - 1) : 0u);
      }
    }
  }
}

}  // namespace
}  // namespace hpcdb::testing
