#pragma once
// The receiving side of a shuffle: whatever operator comes next. Batches are
// handed over while the exchange goes on, each on the receiving worker
// thread that owns its stream; the rows are valid only during the call (the
// buffer then returns to its sender as a credit).
#include <cstddef>

namespace hpcdb {

class ShuffleConsumer {
 public:
  virtual ~ShuffleConsumer() = default;

  // `rows` rows of the shuffle's width from rank `source`, on receiving
  // worker `worker` (0 .. threads-1). Calls for different workers run
  // concurrently; calls for one worker never overlap.
  virtual void consume(unsigned worker, int source, const std::byte* rows, std::size_t count) = 0;

  // Rank `source` has sent everything: called once per source and exchange,
  // after every consume() of that source has returned, possibly on any worker.
  virtual void end_of_stream(int source) = 0;
};

}  // namespace hpcdb
