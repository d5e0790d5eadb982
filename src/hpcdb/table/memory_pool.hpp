#pragma once
// The pool every Arrow buffer the engine makes comes from, whatever the
// process's default Arrow pool is (pyarrow's is mimalloc): Arrow's jemalloc
// where libarrow has it (unless ARROW_DEFAULT_MEMORY_POOL names another, or
// a sanitizer build needs the C library's malloc to watch). The whole
// pages of a new block of 64 KiB or more are made resident as it is
// allocated, in one call rather than a page fault per page
// (core/memory.hpp's populate_pages): the Parquet reader's batches, a
// received broadcast and a result's columns are fresh memory. A block that
// grows is not populated.
#include <arrow/memory_pool.h>

namespace hpcdb {

arrow::MemoryPool* table_memory_pool();

}  // namespace hpcdb
