#pragma once
// A one-shot command keeps the memory it frees for its later phases instead
// of returning it to the kernel. A fresh page costs far more than a reused
// one: the kernel zeroes it on first touch (on the 2-core machine the
// project is measured on, about 1 s per GiB touched first, 0.05 s the second
// time), and a join frees and allocates gigabytes from phase to phase (the
// Parquet reader's buffers, the operator's tuples, the fetch buffers, the
// result). So glibc's malloc takes every allocation from its heap and never
// trims it, and Arrow allocates through it too (its system pool; a pool
// named in ARROW_DEFAULT_MEMORY_POOL is kept). The peak resident memory is
// what it would be; the process holds that peak until it exits. Call it
// first thing in main, before anything allocates through Arrow.
namespace hpcdb {

void keep_freed_memory();

}  // namespace hpcdb
