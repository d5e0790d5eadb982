#include "hpcdb/core/process_memory.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstring>

#include "hpcdb/core/memory.hpp"

namespace hpcdb {
namespace {

constexpr std::uint64_t kMiB = 1u << 20;

TEST(ProcessMemory, ReadsTheKernelsCounts) {
  const ProcessMemory memory = read_process_memory();
  EXPECT_GT(memory.resident, 0u);
  EXPECT_GE(memory.peak_resident, memory.resident);
  EXPECT_LE(memory.anonymous + memory.file + memory.shared, memory.resident + kMiB);
}

TEST(PeakMemoryMeter, SeesPrivateMemoryThatCameAndWent) {
  PeakMemoryMeter meter;
  meter.start();
  const MemoryPeak before = meter.stop();
  meter.start();
  {
    MemoryRegion region(96 * kMiB, Prefault::yes);  // touched, then unmapped again
  }
  const MemoryPeak peak = meter.stop();
  if (!peak.since_start) GTEST_SKIP() << "this kernel does not let a process reset its peak";
  EXPECT_GE(peak.private_bytes, before.private_bytes + 90 * kMiB);
  EXPECT_LE(peak.private_bytes, before.private_bytes + 110 * kMiB);
  // A new span starts from what is resident now, without the region.
  meter.start();
  EXPECT_LT(meter.stop().private_bytes, before.private_bytes + 20 * kMiB);
}

TEST(PeakMemoryMeter, CountsSharedMemoryOnceNotAsPrivate) {
  PeakMemoryMeter meter;
  meter.start();
  const MemoryPeak before = meter.stop();
  const std::size_t bytes = 64 * kMiB;
  void* shared = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(shared, MAP_FAILED);
  std::memset(shared, 1, bytes);
  meter.start();
  const MemoryPeak peak = meter.stop();
  munmap(shared, bytes);
  EXPECT_GE(peak.shared_bytes, before.shared_bytes + 60 * kMiB);
  EXPECT_LT(peak.private_bytes, before.private_bytes + 20 * kMiB);
}

}  // namespace
}  // namespace hpcdb
