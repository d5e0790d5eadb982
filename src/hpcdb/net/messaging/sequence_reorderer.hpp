#pragma once
// Restores sending order where it matters: messages of one (source, stream)
// carry sequence numbers 0, 1, 2, ... (SendOptions), and arrive in any order
// (a large message overtakes a small one, network threads run handlers
// concurrently). A handler pushes what arrives; `in_order` sees each stream's
// messages in sequence order, one at a time, on whichever thread pushed the
// message that completed a run. Out-of-order messages wait here, kept (moved
// out of the ring into pool buffers).
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <utility>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/messaging/message_layer.hpp"

namespace hpcdb {

class SequenceReorderer {
 public:
  explicit SequenceReorderer(std::function<void(Message&)> in_order) : in_order_(std::move(in_order)) {}

  void push(Message& message) {
    std::lock_guard lock(mutex_);
    Stream& s = streams_[{message.source(), message.stream()}];
    if (message.sequence() != s.next) {
      if (message.sequence() < s.next || s.waiting.count(message.sequence()) > 0) {
        throw Error("message " + std::to_string(message.sequence()) + " of stream " + std::to_string(message.stream()) +
                    " from rank " + std::to_string(message.source()) + " arrived twice");
      }
      s.waiting.emplace(message.sequence(), std::move(message));
      ++out_of_order_;
      return;
    }
    in_order_(message);
    ++s.next;
    for (auto it = s.waiting.begin(); it != s.waiting.end() && it->first == s.next; it = s.waiting.erase(it)) {
      in_order_(it->second);
      ++s.next;
    }
  }
  // Messages that arrived before an earlier one of their stream.
  std::uint64_t out_of_order() const {
    std::lock_guard lock(mutex_);
    return out_of_order_;
  }
  // Messages still waiting for an earlier one.
  std::size_t waiting() const {
    std::lock_guard lock(mutex_);
    std::size_t n = 0;
    for (const auto& [key, s] : streams_) n += s.waiting.size();
    return n;
  }

 private:
  struct Stream {
    std::uint64_t next = 0;
    std::map<std::uint64_t, Message> waiting;
  };
  std::function<void(Message&)> in_order_;
  mutable std::mutex mutex_;
  std::map<std::pair<int, std::uint32_t>, Stream> streams_;
  std::uint64_t out_of_order_ = 0;
};

}  // namespace hpcdb
