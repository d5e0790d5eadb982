#include "hpcdb/core/memory_reuse.hpp"

#include <malloc.h>

#include <cstdlib>
#include <limits>

namespace hpcdb {

void keep_freed_memory() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  setenv("ARROW_DEFAULT_MEMORY_POOL", "system", /*overwrite=*/0);
}

}  // namespace hpcdb
