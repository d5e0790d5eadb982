#pragma once
// The pool every Arrow buffer the engine makes comes from: the C library's
// allocator (Arrow's system pool), whatever the process's default Arrow pool
// is (pyarrow's is mimalloc), so that one policy decides whether freed
// memory is kept for the next phase, for the engine's own vectors and its
// tables alike (core/memory_reuse.hpp).
#include <arrow/memory_pool.h>

namespace hpcdb {

inline arrow::MemoryPool* table_memory_pool() { return arrow::system_memory_pool(); }

}  // namespace hpcdb
