#pragma once
// A ResultChannel for tests: keeps every delivered message, in order.
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "hpcdb/storage/batch_messages.hpp"
#include "hpcdb/storage/result_piece_view.hpp"
#include "hpcdb/storage/result_stream.hpp"

namespace hpcdb::testing {

class VectorPiece final : public PieceBuffer {
 public:
  explicit VectorPiece(std::size_t bytes) : bytes_(bytes) {}
  std::byte* data() override { return bytes_.data(); }
  std::size_t capacity() const override { return bytes_.size(); }
  std::vector<std::byte> take(std::size_t n) {
    bytes_.resize(n);
    return std::move(bytes_);
  }

 private:
  std::vector<std::byte> bytes_;
};

struct Delivered {
  std::vector<std::byte> bytes;
  Priority priority = Priority::best_effort;
  BatchMessage kind() const { return message_kind(bytes); }
  ResultPieceHeader header() const {
    ResultPieceHeader h;
    std::memcpy(&h, bytes.data(), sizeof(h));
    return h;
  }
};

class CollectingChannel final : public ResultChannel {
 public:
  std::unique_ptr<PieceBuffer> acquire(std::size_t bytes) override { return std::make_unique<VectorPiece>(bytes); }
  void deliver(std::unique_ptr<PieceBuffer> buffer, std::size_t bytes, Priority priority) override {
    std::lock_guard lock(mutex_);
    messages.push_back({static_cast<VectorPiece&>(*buffer).take(bytes), priority});
  }
  std::vector<Delivered> messages;

 private:
  std::mutex mutex_;
};

}  // namespace hpcdb::testing
