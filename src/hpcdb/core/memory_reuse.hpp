#pragma once
// Keeping the memory the engine frees for its later phases instead of
// returning it to the kernel. A fresh page costs far more than a reused one:
// the kernel zeroes it on first touch (on the 2-core machine the project is
// measured on, about 1 s per GiB touched first, 0.05 s the second time), and
// a join frees and allocates gigabytes from phase to phase (the Parquet
// reader's buffers, the operator's tuples, the fetch buffers, the result).
// While the policy holds, glibc's malloc takes every allocation from its
// heap and never trims it: the engine's own vectors. Its Arrow buffers come
// from jemalloc where libarrow has it (table/memory_pool.hpp), which keeps
// what is freed for about a second; from this heap in sanitizer builds.
// The peak resident memory is what it would be; the process holds that
// peak while the policy holds.
namespace hpcdb {

// For the whole process (a command: it holds the peak until it exits).
void keep_freed_memory();

// For one call of the library in a longer-lived process (Python): glibc's
// defaults come back at its end, so that what is freed afterwards returns to
// the kernel as usual.
class FreedMemoryKept {
 public:
  FreedMemoryKept();
  ~FreedMemoryKept();
  FreedMemoryKept(const FreedMemoryKept&) = delete;
  FreedMemoryKept& operator=(const FreedMemoryKept&) = delete;
};

}  // namespace hpcdb
