#include "hpcdb/core/memory_reuse.hpp"

#include <malloc.h>

#include <limits>

namespace hpcdb {
namespace {

// glibc's defaults (mallopt(3)).
constexpr int kDefaultMmapMax = 65536;
constexpr int kDefaultTrimThreshold = 128 * 1024;

}  // namespace

void keep_freed_memory() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
}

FreedMemoryKept::FreedMemoryKept() { keep_freed_memory(); }

FreedMemoryKept::~FreedMemoryKept() {
  mallopt(M_MMAP_MAX, kDefaultMmapMax);
  mallopt(M_TRIM_THRESHOLD, kDefaultTrimThreshold);
}

}  // namespace hpcdb
