#pragma once
// How a transaction reaches the data its locks guard: by region (a partition,
// or a lock agent's replica) and byte offset. The engine's DataStore reaches
// lock agents' memory one-sidedly; tests may use plain memory.
#include <cstddef>
#include <cstdint>

namespace hpcdb {

// A place in the data: region (a partition < partitions, or partitions + a
// for the replica at lock agent a) and a byte offset in it.
struct DataRef {
  std::uint32_t region = 0;
  std::uint64_t offset = 0;
  DataRef plus(std::uint64_t bytes) const { return {region, offset + bytes}; }
};

class DataAccess {
 public:
  virtual ~DataAccess() = default;
  virtual bool enabled() const = 0;
  virtual void get(DataRef at, void* into, std::size_t bytes) = 0;        // complete on return
  virtual void put(DataRef at, const void* from, std::size_t bytes) = 0;  // complete after complete()
  virtual std::uint64_t load_word(DataRef at) = 0;  // an 8-byte aligned word that others may be writing
  virtual void complete() = 0;                      // finishes every put
};

}  // namespace hpcdb
