#pragma once
// How much memory this process holds, as the kernel counts it, and its peak
// over a span of work.
//
// A rank's memory is its private (anonymous) pages plus its share of the
// node-shared pages it maps: the inputs and receive windows of co-located
// ranks live in shared memory that every rank of the node maps, so counting
// each rank's whole resident set would count those pages once per rank. The
// kernel's proportional set size (Pss_Shmem) splits every shared page among
// the processes that map it; summed over a node's ranks it is the node's
// shared memory, counted once.
#include <cstdint>

namespace hpcdb {

struct ProcessMemory {
  std::uint64_t resident = 0;       // VmRSS
  std::uint64_t peak_resident = 0;  // VmHWM: highest VmRSS since start or the last reset
  std::uint64_t anonymous = 0;      // RssAnon: private memory
  std::uint64_t file = 0;           // RssFile: program, libraries, mapped files
  std::uint64_t shared = 0;         // RssShmem: shared memory this process maps
};

// From /proc/self/status (all zero where it cannot be read).
ProcessMemory read_process_memory();

// This process's proportional share of the shared memory it maps
// (/proc/self/smaps_rollup Pss_Shmem; walks the page tables, so a few
// milliseconds for gigabytes: not for timed code). Nothing known: 0.
std::uint64_t proportional_shared_memory();

// Starts a new peak (VmHWM) from the current resident set. False where the
// kernel does not allow it; the peak then counts from the process start.
bool reset_peak_resident_memory();

// A rank's peak memory over a span of work: start() before it, stop() after.
// The private peak is the resident peak less the pages of mapped files and
// shared memory (which stay mapped across the span: they are allocated and
// pre-faulted before it), the shared part this rank's proportional share at
// the end.
struct MemoryPeak {
  std::uint64_t private_bytes = 0;
  std::uint64_t shared_bytes = 0;
  bool since_start = true;  // the peak covers just the span (else since the process started)
  std::uint64_t total() const { return private_bytes + shared_bytes; }
};

class PeakMemoryMeter {
 public:
  void start() { since_start_ = reset_peak_resident_memory(); }
  MemoryPeak stop() const;

 private:
  bool since_start_ = false;
};

}  // namespace hpcdb
