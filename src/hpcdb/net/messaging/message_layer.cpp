#include "hpcdb/net/messaging/message_layer.hpp"

#include <cstring>
#include <exception>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/standard_output.hpp"
#include "hpcdb/net/messaging/message_engine.hpp"

namespace hpcdb {

void OutgoingBuffer::shrink(std::size_t bytes) {
  if (bytes > size_) {
    throw UsageError("a message buffer of " + std::to_string(size_) + " bytes cannot grow to " + std::to_string(bytes));
  }
  size_ = bytes;
}

Message::Message(Message&& other) { *this = std::move(other); }

Message& Message::operator=(Message&& other) {
  if (this == &other) return *this;
  source_ = other.source_;
  endpoint_ = other.endpoint_;
  priority_ = other.priority_;
  stream_ = other.stream_;
  sequence_ = other.sequence_;
  size_ = other.size_;
  if (other.copy_pool_ != nullptr) {
    // The payload lies in a ring that is reused once the handler returns.
    block_ = other.copy_pool_->acquire(other.size_, BufferPool::OverLimit::overdraw);
    std::memcpy(block_.payload(), other.bytes_, other.size_);
    bytes_ = block_.payload();
  } else {
    block_ = std::move(other.block_);
    bytes_ = other.bytes_;
  }
  copy_pool_ = nullptr;
  other.source_ = -1;
  other.bytes_ = nullptr;
  other.size_ = 0;
  other.block_.reset();
  other.copy_pool_ = nullptr;
  return *this;
}

MessageLayer::MessageLayer(const Cluster& cluster, const MessageLayerConfig& config)
    : engine_(std::make_unique<MessageEngine>(cluster, config)) {}

MessageLayer::~MessageLayer() {
  if (engine_->closed()) return;
  if (std::uncaught_exceptions() > 0) {
    // The job is ending with an error: no collective, peers may be gone.
    engine_->abandon();
    return;
  }
  try {
    engine_->close();
  } catch (const std::exception& e) {
    write_error_line(std::string("hpcdb: error: ") + e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

const MessageLayerConfig& MessageLayer::config() const { return engine_->config(); }
int MessageLayer::rank() const { return engine_->rank(); }
int MessageLayer::ranks() const { return engine_->ranks(); }
OutgoingBuffer MessageLayer::acquire(std::size_t bytes) { return engine_->acquire(bytes); }

void MessageLayer::send(OutgoingBuffer&& buffer, int target, EndpointId endpoint, SendOptions options) {
  engine_->send(std::move(buffer), target, endpoint, options);
}

void MessageLayer::send_copy(std::span<const std::byte> bytes, int target, EndpointId endpoint, SendOptions options) {
  OutgoingBuffer b = engine_->acquire(bytes.size());
  if (!bytes.empty()) std::memcpy(b.data(), bytes.data(), bytes.size());
  engine_->send(std::move(b), target, endpoint, options);
}

void MessageLayer::register_handler(EndpointId endpoint, MessageHandler handler) {
  engine_->register_handler(endpoint, std::move(handler));
}

bool MessageLayer::progress() { return engine_->progress(); }
bool MessageLayer::sending() const { return engine_->sending(); }

void MessageLayer::drain() { engine_->drain(); }
void MessageLayer::close() { engine_->close(); }
MessageLayerStats MessageLayer::stats() const { return engine_->stats(); }

}  // namespace hpcdb
