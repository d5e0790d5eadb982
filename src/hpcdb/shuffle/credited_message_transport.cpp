#include "hpcdb/shuffle/credited_message_transport.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>

#include "hpcdb/core/error.hpp"
#include "hpcdb/shuffle/idle_backoff.hpp"

namespace hpcdb {

CreditedMessageTransport::CreditedMessageTransport(const Cluster& cluster, const ShuffleConfig& config,
                                                   std::unique_ptr<MessageWire> wire)
    : cluster_(cluster), config_(config), ranks_(cluster.size()), wire_(std::move(wire)) {
  const auto peers = static_cast<std::size_t>(ranks_);
  const std::size_t per_worker = peers * config.buffers * config.buffer_bytes;
  workers_.resize(config.threads);
  for (unsigned t = 0; t < config.threads; ++t) {
    Worker& w = workers_[t];
    w.send_buffers = AlignedArray<std::byte>(per_worker, Prefault::yes);
    w.receive_buffers = AlignedArray<std::byte>(per_worker, Prefault::yes);
    w.peers.resize(peers);
    wire_->register_memory(w.send_buffers.data(), per_worker);
    wire_->register_memory(w.receive_buffers.data(), per_worker);
    for (int p = 0; p < ranks_; ++p) {
      if (p == cluster.rank()) continue;
      for (std::uint64_t k = 0; k < config.buffers; ++k) {
        wire_->post_receive(t, p, k, receive_buffer(w, p, k), config.buffer_bytes);
      }
      wire_->post_credit_receive(t, p, &w.peers[static_cast<std::size_t>(p)].credit_in);
    }
  }
  MPI_Barrier(cluster.world());  // every receive is posted before anyone sends
}

CreditedMessageTransport::~CreditedMessageTransport() {
  // Every exchange ends quiet (finish()), so no message is in flight; the
  // wire cancels its posted receives before the buffers go.
  MPI_Barrier(cluster_.world());
  wire_.reset();
}

TransportResources CreditedMessageTransport::resources() const {
  const std::uint64_t per_direction =
      static_cast<std::uint64_t>(ranks_ - 1) * config_.buffers * config_.buffer_bytes * config_.threads;
  return {2 * per_direction, wire_->endpoints()};
}

std::byte* CreditedMessageTransport::send_buffer(Worker& w, int peer, std::uint64_t slot) const {
  return w.send_buffers.data() + (static_cast<std::size_t>(peer) * config_.buffers + slot) * config_.buffer_bytes;
}

std::byte* CreditedMessageTransport::receive_buffer(Worker& w, int peer, std::uint64_t slot) const {
  return w.receive_buffers.data() + (static_cast<std::size_t>(peer) * config_.buffers + slot) * config_.buffer_bytes;
}

BatchBuffer CreditedMessageTransport::acquire(unsigned worker, int dest, BatchSink& sink) {
  Worker& w = workers_[worker];
  Peer& p = w.peers[static_cast<std::size_t>(dest)];
  const std::uint64_t slot = p.acquired % config_.buffers;
  IdleBackoff backoff;
  while (p.acquired - p.credited >= config_.buffers || !wire_->sent(worker, dest, slot)) {
    if (poll(worker, sink)) backoff.busy();
    else backoff.idle();
  }
  ++p.acquired;
  std::byte* buffer = send_buffer(w, dest, slot);
  return {reinterpret_cast<BatchHeader*>(buffer), buffer + kBatchHeaderBytes, slot};
}

void CreditedMessageTransport::send(unsigned worker, int dest, const BatchBuffer& buffer) {
  wire_->send(worker, dest, buffer.slot, reinterpret_cast<const std::byte*>(buffer.header),
              kBatchHeaderBytes + buffer.header->payload_bytes());
}

bool CreditedMessageTransport::poll(unsigned worker, BatchSink& sink) {
  Worker& w = workers_[worker];
  w.arrivals.clear();
  wire_->arrivals(worker, w.arrivals);
  bool arrived = false;
  for (const MessageWire::Arrival& a : w.arrivals) {
    Peer& p = w.peers[static_cast<std::size_t>(a.peer)];
    if (a.credit) {
      p.credited = std::max(p.credited, p.credit_in);
      wire_->post_credit_receive(worker, a.peer, &p.credit_in);
      continue;
    }
    std::byte* buffer = receive_buffer(w, a.peer, a.slot);
    const std::byte* batch = a.data != nullptr ? a.data : buffer;
    // Data a wire hands over in its own buffers (UCX active messages) is
    // aligned to 8 bytes only: the 64-byte aligned header is read from a copy.
    if (a.bytes != 0 && a.bytes < kBatchHeaderBytes) {
      throw Error("received a message of " + std::to_string(a.bytes) + " bytes, shorter than a shuffle batch's header");
    }
    BatchHeader header;
    std::memcpy(&header, batch, sizeof header);
    check_header(header, ranks_, config_, a.bytes);
    if (header.source != static_cast<std::uint32_t>(a.peer)) {
      throw Error("a batch arrived from another rank than its header names");
    }
    sink.deliver(worker, header, batch + kBatchHeaderBytes);
    ++p.freed;
    if (a.data != nullptr) wire_->release(worker, a);
    else wire_->post_receive(worker, a.peer, a.slot, buffer, config_.buffer_bytes);
    arrived = true;
  }
  return_credits(worker, !arrived);
  return arrived;
}

// Sends each source the running count of its batches consumed here, once
// half its buffers are free again, or when nothing else arrived.
void CreditedMessageTransport::return_credits(unsigned worker, bool idle) {
  Worker& w = workers_[worker];
  for (int s = 0; s < ranks_; ++s) {
    Peer& p = w.peers[static_cast<std::size_t>(s)];
    if (!credits_due(p.freed, p.returned, config_.buffers, idle)) continue;
    if (p.credit_in_flight && !wire_->credit_sent(worker, s)) continue;
    p.credit_out = p.freed;
    wire_->send_credit(worker, s, &p.credit_out);
    p.credit_in_flight = true;
    p.returned = p.freed;
  }
}

// Nothing of this worker's in flight: every batch sent was consumed and
// acknowledged, every credit returned and its message sent.
bool CreditedMessageTransport::quiet(unsigned worker) {
  Worker& w = workers_[worker];
  for (int d = 0; d < ranks_; ++d) {
    Peer& p = w.peers[static_cast<std::size_t>(d)];
    if (p.credited != p.acquired || p.returned != p.freed) return false;
    if (p.credit_in_flight) {
      if (!wire_->credit_sent(worker, d)) return false;
      p.credit_in_flight = false;
    }
    for (std::uint64_t k = 0; k < config_.buffers; ++k) {
      if (d != cluster_.rank() && !wire_->sent(worker, d, k)) return false;
    }
  }
  return true;
}

void CreditedMessageTransport::finish(unsigned worker, BatchSink& sink) {
  IdleBackoff backoff;
  while (!quiet(worker)) {
    if (poll(worker, sink)) backoff.busy();
    else backoff.idle();
  }
}

}  // namespace hpcdb
