#include "hpcdb/shuffle/message_layer_transport.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/kernels/write_combiner.hpp"
#include "hpcdb/net/messaging/message_header.hpp"
#include "hpcdb/shuffle/idle_backoff.hpp"

namespace hpcdb {
namespace {

static_assert(sizeof(MessageHeader) <= kMessageLayerHeadroom && kMessageLayerHeadroom % kCacheLine == 0);
// Payload bytes in front of the batch: the layer's header and these bytes
// make up the headroom, so the batch starts on a cache line of the buffer.
constexpr std::size_t kPadding = kMessageLayerHeadroom - sizeof(MessageHeader);

// Worker t receives its batches at the first endpoint, its credits at the second.
EndpointId batch_endpoint(unsigned worker) { return 0x53480000u + 2 * worker; }
EndpointId credit_endpoint(unsigned worker) { return batch_endpoint(worker) + 1; }

// The payload of a batch message: the batch buffer without the layer's header.
std::size_t batch_payload(const ShuffleConfig& config) { return config.buffer_bytes - sizeof(MessageHeader); }

// Pool buffers the exchanges can hold at once: `buffers` per stream for
// sending and as many for receiving.
std::uint64_t warm_buffers(const ShuffleConfig& config, int ranks) {
  return 2ull * static_cast<std::uint64_t>(ranks - 1) * config.threads * config.buffers;
}

std::uint64_t warm_bytes(const ShuffleConfig& config, int ranks) {
  return warm_buffers(config, ranks) * BufferPool::class_bytes(BufferPool::class_of(batch_payload(config)));
}

// The layer's settings, once they are known to serve this shuffle (before
// the layer starts: every rank refuses alike).
MessageLayerConfig checked(const ShuffleConfig& config, int ranks) {
  const MessageLayerConfig& layer = config.layer;
  if (batch_payload(config) > layer.max_message) {
    throw UsageError("--buffer-size " + format_bytes(static_cast<double>(config.buffer_bytes)) +
                     " is more than the message layer's largest message (--max-message " +
                     format_bytes(static_cast<double>(layer.max_message)) + ")");
  }
  if (warm_bytes(config, ranks) > layer.pool_bytes) {
    throw UsageError("the message-layer shuffle holds " + format_bytes(static_cast<double>(warm_bytes(config, ranks))) +
                     " of buffers (--buffers per stream for sending and receiving), more than --pool-bytes " +
                     format_bytes(static_cast<double>(layer.pool_bytes)) +
                     "; raise --pool-bytes or lower --buffers or --buffer-size");
  }
  return layer;
}

}  // namespace

MessageLayerTransport::MessageLayerTransport(const Cluster& cluster, const ShuffleConfig& config)
    : cluster_(cluster), config_(config), ranks_(cluster.size()), layer_(cluster, checked(config, cluster.size())) {
  for (unsigned t = 0; t < config.threads; ++t) {
    auto w = std::make_unique<Worker>();
    w->peers = std::vector<Peer>(static_cast<std::size_t>(ranks_));
    for (Peer& p : w->peers) p.open.resize(config.buffers);
    workers_.push_back(std::move(w));
  }
  for (unsigned t = 0; t < config.threads; ++t) register_handlers(t);
  warm_pool();
  MPI_Barrier(cluster.world());  // every handler is in place before anyone sends
}

MessageLayerTransport::~MessageLayerTransport() = default;

void MessageLayerTransport::register_handlers(unsigned worker) {
  Worker* w = workers_[worker].get();
  layer_.register_handler(batch_endpoint(worker), [w](Message& m) {
    std::lock_guard lock(w->inbox_mutex);
    w->inbox.push_back(std::move(m));  // a batch read from a ring is copied into a pool buffer here
  });
  layer_.register_handler(credit_endpoint(worker), [w](Message& m) {
    std::uint64_t consumed = 0;
    if (m.payload().size() != sizeof consumed) {
      throw Error("a shuffle credit of " + std::to_string(m.payload().size()) + " bytes arrived from rank " +
                  std::to_string(m.source()) + " (expected 8)");
    }
    std::memcpy(&consumed, m.payload().data(), sizeof consumed);
    // Running counts: an older credit that arrives late changes nothing.
    std::atomic<std::uint64_t>& credited = w->peers[static_cast<std::size_t>(m.source())].credited;
    std::uint64_t seen = credited.load(std::memory_order_acquire);
    while (seen < consumed && !credited.compare_exchange_weak(seen, consumed, std::memory_order_acq_rel)) {
    }
  });
}

// Takes every buffer the exchanges can hold at once (sending and receiving),
// touches it and gives it back, so that the pool serves them warm.
void MessageLayerTransport::warm_pool() {
  std::vector<OutgoingBuffer> held;
  for (std::uint64_t k = 0; k < warm_buffers(config_, ranks_); ++k) {
    held.push_back(acquire_buffer(batch_payload(config_)));
    std::memset(held.back().data(), 0, batch_payload(config_));
  }
  held.clear();
  warmed_bytes_ = warm_bytes(config_, ranks_);
}

TransportResources MessageLayerTransport::resources() const {
  return {layer_.stats().window_bytes + warmed_bytes_, static_cast<std::uint64_t>(ranks_ - 1)};
}

void MessageLayerTransport::drive() {
  if (layer_.config().threads > 0) return;
  std::unique_lock lock(driving_, std::try_to_lock);
  if (lock.owns_lock()) layer_.progress();
}

OutgoingBuffer MessageLayerTransport::acquire_buffer(std::size_t payload) {
  if (layer_.config().threads > 0) return layer_.acquire(payload);
  std::lock_guard lock(driving_);  // acquire() may run the layer while the pool is full
  return layer_.acquire(payload);
}

BatchBuffer MessageLayerTransport::acquire(unsigned worker, int dest, BatchSink& sink) {
  Peer& p = workers_[worker]->peers[static_cast<std::size_t>(dest)];
  IdleBackoff backoff;
  while (p.acquired - p.credited.load(std::memory_order_acquire) >= config_.buffers) {
    if (poll(worker, sink)) backoff.busy();
    else backoff.idle();
  }
  const std::uint64_t slot = p.acquired % config_.buffers;
  OutgoingBuffer& b = p.open[slot];
  b = acquire_buffer(batch_payload(config_));
  ++p.acquired;
  std::byte* batch = b.data() + kPadding;
  return {reinterpret_cast<BatchHeader*>(batch), batch + kBatchHeaderBytes, slot};
}

void MessageLayerTransport::send(unsigned worker, int dest, const BatchBuffer& buffer) {
  OutgoingBuffer& b = workers_[worker]->peers[static_cast<std::size_t>(dest)].open[buffer.slot];
  b.shrink(kPadding + kBatchHeaderBytes + buffer.header->payload_bytes());
  layer_.send(std::move(b), dest, batch_endpoint(worker),
              {.priority = Priority::best_effort, .stream = worker, .sequence = buffer.header->seq});
}

bool MessageLayerTransport::poll(unsigned worker, BatchSink& sink) {
  drive();
  Worker& w = *workers_[worker];
  {
    std::lock_guard lock(w.inbox_mutex);
    std::swap(w.inbox, w.taken);
  }
  for (Message& m : w.taken) {
    if (m.payload().size() < kPadding + kBatchHeaderBytes) {
      throw Error("a message of " + std::to_string(m.payload().size()) + " bytes from rank " +
                  std::to_string(m.source()) + " is too short for a shuffle batch");
    }
    const std::byte* batch = m.payload().data() + kPadding;
    const auto& header = *reinterpret_cast<const BatchHeader*>(batch);
    check_header(header, ranks_, config_, m.payload().size() - kPadding);
    if (header.source != static_cast<std::uint32_t>(m.source())) {
      throw Error("a batch arrived from another rank than its header names");
    }
    sink.deliver(worker, header, batch + kBatchHeaderBytes);
    ++w.peers[static_cast<std::size_t>(m.source())].freed;
    m.release();
  }
  const bool arrived = !w.taken.empty();
  w.taken.clear();
  return_credits(worker, !arrived);
  return arrived;
}

// Sends each source the running count of its batches consumed here, once
// half its buffers are free again, or when nothing else arrived.
void MessageLayerTransport::return_credits(unsigned worker, bool idle) {
  Worker& w = *workers_[worker];
  for (int s = 0; s < ranks_; ++s) {
    Peer& p = w.peers[static_cast<std::size_t>(s)];
    if (!credits_due(p.freed, p.returned, config_.buffers, idle)) continue;
    OutgoingBuffer credit = acquire_buffer(sizeof p.freed);
    std::memcpy(credit.data(), &p.freed, sizeof p.freed);
    layer_.send(std::move(credit), s, credit_endpoint(worker), {.priority = Priority::latency, .stream = worker});
    p.returned = p.freed;
  }
}

// Nothing of this worker's in flight: every batch sent was consumed and
// acknowledged, every credit returned; without network threads, also every
// message of this rank handed to MPI (nobody else would move them).
bool MessageLayerTransport::quiet(unsigned worker) {
  for (const Peer& p : workers_[worker]->peers) {
    if (p.credited.load(std::memory_order_acquire) != p.acquired || p.returned != p.freed) return false;
  }
  return layer_.config().threads > 0 || !layer_.sending();
}

void MessageLayerTransport::finish(unsigned worker, BatchSink& sink) {
  IdleBackoff backoff;
  while (!quiet(worker)) {
    if (poll(worker, sink)) backoff.busy();
    else backoff.idle();
  }
}

}  // namespace hpcdb
