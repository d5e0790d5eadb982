// A bulk operator's thread moves to the idle scheduling class, the threads
// it starts follow it, and no other thread is touched.
#include <gtest/gtest.h>

#include <sched.h>

#include <thread>

#include "hpcdb/storage/thread_priority.hpp"

namespace hpcdb {
namespace {

TEST(ThreadPriority, BackgroundThreadAndItsChildrenRunInTheIdleClass) {
  const int before = sched_getscheduler(0);
  int own = -1;
  int child = -1;
  std::thread bulk([&] {
    run_in_background();
    own = sched_getscheduler(0);
    std::thread worker([&] { child = sched_getscheduler(0); });
    worker.join();
  });
  bulk.join();
  EXPECT_EQ(own, SCHED_IDLE);
  EXPECT_EQ(child, SCHED_IDLE);
  EXPECT_EQ(sched_getscheduler(0), before);
  int sibling = -1;
  std::thread other([&] { sibling = sched_getscheduler(0); });
  other.join();
  EXPECT_EQ(sibling, before);
}

}  // namespace
}  // namespace hpcdb
