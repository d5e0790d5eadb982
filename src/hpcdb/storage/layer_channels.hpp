#pragma once
// The batch interface over the message layer: pieces are the layer's pooled
// buffers, sent to a rank's endpoint (LayerChannel) or handed by a function
// call to a receiver in the same process (LocalChannel), which then gets
// exactly what a network handler would: a payload that stays valid while it
// is held.
#include <functional>
#include <memory>

#include "hpcdb/net/messaging/message_layer.hpp"
#include "hpcdb/storage/result_stream.hpp"

namespace hpcdb {

// The layer's endpoints for the batch interface.
constexpr EndpointId kStorageEndpoint = 0x42490001;  // query batches and notices, at storage engines
constexpr EndpointId kEngineEndpoint = 0x42490002;   // results, at query engines

class LayerPiece final : public PieceBuffer {
 public:
  explicit LayerPiece(OutgoingBuffer buffer) : buffer_(std::move(buffer)) {}
  std::byte* data() override { return buffer_.data(); }
  std::size_t capacity() const override { return buffer_.size(); }
  OutgoingBuffer take(std::size_t bytes) {
    buffer_.shrink(bytes);
    return std::move(buffer_);
  }

 private:
  OutgoingBuffer buffer_;
};

// A message kept past its handler.
class KeptMessage final : public ReceivedPayload {
 public:
  explicit KeptMessage(Message&& m) : message_(std::move(m)) {}
  std::span<const std::byte> bytes() const override { return message_.payload(); }

 private:
  Message message_;
};

// A piece delivered in-process.
class LocalPayload final : public ReceivedPayload {
 public:
  LocalPayload(std::unique_ptr<PieceBuffer> buffer, std::size_t bytes) : buffer_(std::move(buffer)), bytes_(bytes) {}
  std::span<const std::byte> bytes() const override { return {buffer_->data(), bytes_}; }

 private:
  std::unique_ptr<PieceBuffer> buffer_;
  std::size_t bytes_;
};

class LayerChannel final : public ResultChannel {
 public:
  LayerChannel(MessageLayer& layer, int rank, EndpointId endpoint) : layer_(layer), rank_(rank), endpoint_(endpoint) {}
  std::unique_ptr<PieceBuffer> acquire(std::size_t bytes) override {
    return std::make_unique<LayerPiece>(layer_.acquire(bytes));
  }
  void deliver(std::unique_ptr<PieceBuffer> buffer, std::size_t bytes, Priority priority) override {
    auto& piece = static_cast<LayerPiece&>(*buffer);
    layer_.send(piece.take(bytes), rank_, endpoint_, {.priority = priority});
  }

 private:
  MessageLayer& layer_;
  int rank_;
  EndpointId endpoint_;
};

using LocalReceiver = std::function<void(int source, std::unique_ptr<ReceivedPayload> payload)>;

class LocalChannel final : public ResultChannel {
 public:
  LocalChannel(MessageLayer& layer, LocalReceiver receiver) : layer_(layer), receiver_(std::move(receiver)) {}
  std::unique_ptr<PieceBuffer> acquire(std::size_t bytes) override {
    return std::make_unique<LayerPiece>(layer_.acquire(bytes));
  }
  void deliver(std::unique_ptr<PieceBuffer> buffer, std::size_t bytes, Priority) override {
    receiver_(layer_.rank(), std::make_unique<LocalPayload>(std::move(buffer), bytes));
  }

 private:
  MessageLayer& layer_;
  LocalReceiver receiver_;
};

}  // namespace hpcdb
