#include "hpcdb/shuffle/stream_tracker.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

// Feeds the batches 0..n-1 of one stream in `order` (the last one flagged)
// and returns after which arrival the stream was complete.
std::size_t complete_after(StreamTracker& tracker, int source, const std::vector<std::uint64_t>& order) {
  const std::uint64_t last = order.size() - 1;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (tracker.arrived(source, order[i], order[i] == last)) return i;
  }
  return order.size();
}

TEST(StreamTracker, InOrderStreamCompletesWithItsLastBatch) {
  StreamTracker tracker(2);
  EXPECT_EQ(complete_after(tracker, 1, {0, 1, 2, 3}), 3u);
  EXPECT_TRUE(tracker.complete(1));
  EXPECT_FALSE(tracker.all_complete());
  EXPECT_EQ(complete_after(tracker, 0, {0}), 0u);  // a stream of one (possibly empty) batch
  EXPECT_TRUE(tracker.all_complete());
}

TEST(StreamTracker, AnyArrivalOrderCompletesAtTheLastArrival) {
  std::mt19937_64 rng(7);
  for (std::size_t n : {1u, 2u, 3u, 10u, 257u}) {
    for (int round = 0; round < 20; ++round) {
      std::vector<std::uint64_t> order(n);
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), rng);
      StreamTracker tracker(3);
      EXPECT_EQ(complete_after(tracker, 2, order), n - 1) << n;
      EXPECT_FALSE(tracker.all_complete());
    }
  }
}

TEST(StreamTracker, EndAnnouncedFirstWaitsForTheRest) {
  StreamTracker tracker(1);
  EXPECT_FALSE(tracker.arrived(0, 4, true));
  for (std::uint64_t s : {2u, 0u, 3u}) EXPECT_FALSE(tracker.arrived(0, s, false));
  EXPECT_TRUE(tracker.arrived(0, 1, false));
  EXPECT_TRUE(tracker.all_complete());
}

TEST(StreamTracker, ADuplicateThatHidesAMissingBatchIsAnError) {
  StreamTracker tracker(1);
  tracker.arrived(0, 0, false);
  tracker.arrived(0, 0, false);  // duplicate; batch 1 never comes
  EXPECT_THROW(tracker.arrived(0, 2, true), Error);
}

TEST(StreamTracker, BatchesBeyondTheEndAreErrors) {
  {
    StreamTracker tracker(1);
    tracker.arrived(0, 1, true);
    EXPECT_THROW(tracker.arrived(0, 5, false), Error);
  }
  {
    StreamTracker tracker(1);
    tracker.arrived(0, 3, false);
    EXPECT_THROW(tracker.arrived(0, 1, true), Error);  // batch 3 lies beyond a stream of 2
  }
  {
    StreamTracker tracker(1);
    tracker.arrived(0, 2, true);
    EXPECT_THROW(tracker.arrived(0, 2, true), Error);  // the end announced twice
  }
  {
    StreamTracker tracker(1);
    tracker.arrived(0, 0, true);
    EXPECT_THROW(tracker.arrived(0, 0, false), Error);  // after completion
  }
}

TEST(StreamTracker, ResetStartsOver) {
  StreamTracker tracker(1);
  tracker.arrived(0, 0, true);
  tracker.reset();
  EXPECT_FALSE(tracker.all_complete());
  EXPECT_TRUE(tracker.arrived(0, 0, true));
}

}  // namespace
}  // namespace hpcdb
