#pragma once
// Puts the batch streams that arrive at one receiving thread back together,
// whatever order the transport delivers them in: a stream is complete once
// its last batch (which tells how many batches the stream has) and every
// other batch have arrived. A repeated or impossible sequence number is an
// error, never a silent miscount.
#include <cstdint>
#include <vector>

namespace hpcdb {

class StreamTracker {
 public:
  explicit StreamTracker(int sources) : streams_(static_cast<std::size_t>(sources)) {}

  // Forgets every stream (before a new exchange).
  void reset();

  // Records batch `seq` of the stream from `source`. Returns true when this
  // completed the stream. Throws Error for a batch after the stream's last,
  // a second last batch, or a stream whose batches do not add up.
  bool arrived(int source, std::uint64_t seq, bool last);

  bool complete(int source) const { return streams_[static_cast<std::size_t>(source)].complete; }
  // True when every source's stream is complete.
  bool all_complete() const { return completed_ == streams_.size(); }

 private:
  struct Stream {
    std::uint64_t arrived = 0;
    std::uint64_t seq_sum = 0;  // of arrived batches, to catch a duplicate that hides a missing batch
    std::uint64_t total = 0;    // known once the last batch arrived
    bool last_seen = false;
    bool complete = false;
  };
  std::vector<Stream> streams_;
  std::size_t completed_ = 0;
};

}  // namespace hpcdb
