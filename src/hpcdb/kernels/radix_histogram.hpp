#pragma once
// Counting pass of radix partitioning: tuples per partition, plus the bits
// that keys and rids actually use (which decides whether tuples compress).
#include <cstddef>
#include <cstdint>

#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

struct KeyRidBits {
  std::uint64_t key_or = 0;  // bitwise OR of all keys
  std::uint64_t rid_or = 0;  // bitwise OR of all rids
};

// Adds to counts[key & mask] for every tuple; counts has mask + 1 entries.
inline KeyRidBits radix_histogram(const Tuple* tuples, std::size_t n, std::uint64_t mask, std::uint64_t* counts) {
  std::uint64_t key_or = 0;
  std::uint64_t rid_or = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t key = tuples[i].key;
    key_or |= key;
    rid_or |= tuples[i].rid;
    ++counts[key & mask];
  }
  return {key_or, rid_or};
}

}  // namespace hpcdb
