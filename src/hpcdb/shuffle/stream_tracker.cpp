#include "hpcdb/shuffle/stream_tracker.hpp"

#include <fmt/format.h>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

void StreamTracker::reset() {
  for (Stream& s : streams_) s = Stream{};
  completed_ = 0;
}

bool StreamTracker::arrived(int source, std::uint64_t seq, bool last) {
  Stream& s = streams_[static_cast<std::size_t>(source)];
  if (s.complete) {
    throw Error(fmt::format("batch {} from rank {} arrived after its stream was complete (a duplicate)", seq, source));
  }
  if (last) {
    if (s.last_seen) throw Error(fmt::format("the stream from rank {} announced its end twice", source));
    s.last_seen = true;
    s.total = seq + 1;
  }
  if (s.last_seen && (seq >= s.total || s.arrived >= s.total)) {
    throw Error(fmt::format("batch {} from rank {} lies beyond the stream's end of {} batches", seq, source, s.total));
  }
  ++s.arrived;
  s.seq_sum += seq;
  if (!s.last_seen || s.arrived < s.total) return false;
  const std::uint64_t expected_sum = s.total % 2 == 0 ? s.total / 2 * (s.total - 1) : (s.total - 1) / 2 * s.total;
  if (s.seq_sum != expected_sum) {
    throw Error(fmt::format("the stream from rank {} has {} batches, but not batches 0 to {} (one repeated, one "
                            "missing)", source, s.total, s.total - 1));
  }
  s.complete = true;
  ++completed_;
  return true;
}

}  // namespace hpcdb
