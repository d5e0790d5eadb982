// The checks of a netbench configuration before anything runs (no MPI).
#include "hpcdb/net/bench/netbench_suite.hpp"

#include <gtest/gtest.h>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

NetbenchConfig quick() {
  NetbenchConfig c;
  c.tests = {NetbenchTest::bandwidth, NetbenchTest::latency, NetbenchTest::mixed, NetbenchTest::broadcast,
             NetbenchTest::priority};
  c.transports = {NetbenchTransport::mpi, NetbenchTransport::hybrid};
  c.sizes = {8, 4096};
  c.latency_sizes = {8};
  c.flood_sizes = {4096};
  return c;
}

// The message of the UsageError validate() throws, or "" if it accepts.
std::string rejection(const NetbenchConfig& c, int ranks = 2) {
  try {
    validate(c, ranks);
    return "";
  } catch (const UsageError& e) {
    return e.what();
  }
}

TEST(NetbenchConfig, AcceptsAQuickRun) { EXPECT_EQ(rejection(quick()), ""); }

TEST(NetbenchConfig, NeedsTestsTransportsAndSizes) {
  NetbenchConfig c = quick();
  c.tests.clear();
  EXPECT_EQ(rejection(c), "--tests names no test");
  c = quick();
  c.transports.clear();
  EXPECT_EQ(rejection(c), "--transports names no transport");
  c = quick();
  c.latency_sizes.clear();
  EXPECT_EQ(rejection(c), "--latency-sizes names no size");
}

TEST(NetbenchConfig, RefusesValuesOutOfRange) {
  NetbenchConfig c = quick();
  c.window = 0;
  EXPECT_EQ(rejection(c), "--window must be between 1 and 4096");
  c = quick();
  c.rounds = 101;
  EXPECT_EQ(rejection(c), "--rounds must be between 1 and 100");
  c = quick();
  c.duration = 0;
  EXPECT_EQ(rejection(c), "--duration must be between 0 and 3600 seconds");
}

TEST(NetbenchConfig, TheThreadedTestsNeedNetworkThreads) {
  NetbenchConfig c = quick();
  c.layer.threads = 0;
  EXPECT_NE(rejection(c).find("--net-threads 1 or more"), std::string::npos);
  c.tests = {NetbenchTest::bandwidth, NetbenchTest::latency};
  EXPECT_EQ(rejection(c), "");
}

TEST(NetbenchConfig, MessagesAndWindowsMustFitTheLayer) {
  NetbenchConfig c = quick();
  c.sizes = {8, c.layer.max_message + 1};  // the largest size counts, whatever the order
  std::swap(c.sizes[0], c.sizes[1]);
  EXPECT_NE(rejection(c).find("more than --max-message"), std::string::npos) << rejection(c);
  c = quick();
  c.window = 4096;
  c.sizes = {1 << 20};
  EXPECT_NE(rejection(c).find("more than --pool-bytes"), std::string::npos) << rejection(c);
  // The broadcast's window goes to every receiver.
  c = quick();
  c.tests = {NetbenchTest::broadcast};
  c.window = 1024;
  c.sizes = {256 << 10};
  EXPECT_EQ(rejection(c, 2), "");
  EXPECT_NE(rejection(c, 8).find("more than --pool-bytes"), std::string::npos);
}

TEST(NetbenchConfig, MeasuresBetweenRanks) {
  EXPECT_NE(rejection(quick(), 1).find("at least 2"), std::string::npos);
}

}  // namespace
}  // namespace hpcdb
