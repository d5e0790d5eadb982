#include "hpcdb/shuffle/mpi_two_sided_transport.hpp"

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/shuffle/idle_backoff.hpp"

namespace hpcdb {
namespace {

int data_tag(unsigned worker) { return static_cast<int>(2 * worker); }
int credit_tag(unsigned worker) { return static_cast<int>(2 * worker + 1); }

}  // namespace

MpiTwoSidedTransport::MpiTwoSidedTransport(const Cluster& cluster, const ShuffleConfig& config)
    : cluster_(cluster), config_(config), ranks_(cluster.size()) {
  MPI_Comm_dup(cluster.world(), &comm_);
  const auto peers = static_cast<std::size_t>(ranks_);
  const std::size_t per_worker = peers * config.buffers * config.buffer_bytes;
  workers_.resize(config.threads);
  for (unsigned t = 0; t < config.threads; ++t) {
    Worker& w = workers_[t];
    w.send_buffers = AlignedArray<std::byte>(per_worker, Prefault::yes);
    w.receive_buffers = AlignedArray<std::byte>(per_worker, Prefault::yes);
    w.sends.assign(peers * config.buffers, MPI_REQUEST_NULL);
    w.receives.assign(peers * config.buffers + peers, MPI_REQUEST_NULL);
    w.completed.resize(w.receives.size());
    w.statuses.resize(w.receives.size());
    w.peers.resize(peers);
    for (int p = 0; p < ranks_; ++p) {
      if (p == cluster.rank()) continue;
      for (std::uint64_t k = 0; k < config.buffers; ++k) post_data_receive(t, p, k);
      post_credit_receive(t, p);
    }
  }
  MPI_Barrier(comm_);  // every receive is posted before anyone sends
}

MpiTwoSidedTransport::~MpiTwoSidedTransport() {
  for (Worker& w : workers_) {
    for (MPI_Request& r : w.receives) {
      if (r == MPI_REQUEST_NULL) continue;
      MPI_Cancel(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    for (MPI_Request& r : w.sends) {
      if (r != MPI_REQUEST_NULL) MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    for (Peer& p : w.peers) {
      if (p.credit_send != MPI_REQUEST_NULL) MPI_Wait(&p.credit_send, MPI_STATUS_IGNORE);
    }
  }
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

TransportResources MpiTwoSidedTransport::resources() const {
  const std::uint64_t per_direction =
      static_cast<std::uint64_t>(ranks_ - 1) * config_.buffers * config_.buffer_bytes * config_.threads;
  return {2 * per_direction, static_cast<std::uint64_t>(ranks_ - 1)};
}

std::byte* MpiTwoSidedTransport::send_buffer(Worker& w, int peer, std::uint64_t slot) const {
  return w.send_buffers.data() + (static_cast<std::size_t>(peer) * config_.buffers + slot) * config_.buffer_bytes;
}

std::byte* MpiTwoSidedTransport::receive_buffer(Worker& w, int peer, std::uint64_t slot) const {
  return w.receive_buffers.data() + (static_cast<std::size_t>(peer) * config_.buffers + slot) * config_.buffer_bytes;
}

void MpiTwoSidedTransport::post_data_receive(unsigned worker, int peer, std::uint64_t slot) {
  Worker& w = workers_[worker];
  MPI_Irecv(receive_buffer(w, peer, slot), static_cast<int>(config_.buffer_bytes), MPI_BYTE, peer, data_tag(worker),
            comm_, &w.receives[static_cast<std::size_t>(peer) * config_.buffers + slot]);
}

void MpiTwoSidedTransport::post_credit_receive(unsigned worker, int peer) {
  Worker& w = workers_[worker];
  const std::size_t index = static_cast<std::size_t>(ranks_) * config_.buffers + static_cast<std::size_t>(peer);
  MPI_Irecv(&w.peers[static_cast<std::size_t>(peer)].credit_in, 1, MPI_UINT64_T, peer, credit_tag(worker), comm_,
            &w.receives[index]);
}

BatchBuffer MpiTwoSidedTransport::acquire(unsigned worker, int dest, BatchSink& sink) {
  Worker& w = workers_[worker];
  Peer& p = w.peers[static_cast<std::size_t>(dest)];
  const std::uint64_t slot = p.acquired % config_.buffers;
  MPI_Request& previous = w.sends[static_cast<std::size_t>(dest) * config_.buffers + slot];
  IdleBackoff backoff;
  for (;;) {
    if (p.acquired - p.credited < config_.buffers) {
      if (previous == MPI_REQUEST_NULL) break;
      int done = 0;
      {
        std::lock_guard lock(mpi_);
        MPI_Test(&previous, &done, MPI_STATUS_IGNORE);
      }
      if (done) break;
    }
    if (poll(worker, sink)) backoff.busy();
    else backoff.idle();
  }
  ++p.acquired;
  std::byte* buffer = send_buffer(w, dest, slot);
  return {reinterpret_cast<BatchHeader*>(buffer), buffer + kBatchHeaderBytes, slot};
}

void MpiTwoSidedTransport::send(unsigned worker, int dest, const BatchBuffer& buffer) {
  Worker& w = workers_[worker];
  const auto bytes = static_cast<int>(kBatchHeaderBytes + buffer.header->payload_bytes());
  std::lock_guard lock(mpi_);
  MPI_Isend(buffer.header, bytes, MPI_BYTE, dest, data_tag(worker), comm_,
            &w.sends[static_cast<std::size_t>(dest) * config_.buffers + buffer.slot]);
}

bool MpiTwoSidedTransport::poll(unsigned worker, BatchSink& sink) {
  Worker& w = workers_[worker];
  int count = 0;
  {
    std::lock_guard lock(mpi_);
    MPI_Testsome(static_cast<int>(w.receives.size()), w.receives.data(), &count, w.completed.data(),
                 w.statuses.data());
  }
  if (count == MPI_UNDEFINED) count = 0;  // nothing posted (a single rank)
  const std::size_t data_requests = static_cast<std::size_t>(ranks_) * config_.buffers;
  bool arrived = false;
  for (int i = 0; i < count; ++i) {
    const auto index = static_cast<std::size_t>(w.completed[static_cast<std::size_t>(i)]);
    if (index >= data_requests) {
      const int peer = static_cast<int>(index - data_requests);
      Peer& p = w.peers[index - data_requests];
      p.credited = std::max(p.credited, p.credit_in);
      std::lock_guard lock(mpi_);
      post_credit_receive(worker, peer);
      continue;
    }
    const int peer = static_cast<int>(index / config_.buffers);
    const std::uint64_t slot = index % config_.buffers;
    int bytes = 0;
    MPI_Get_count(&w.statuses[static_cast<std::size_t>(i)], MPI_BYTE, &bytes);
    const std::byte* buffer = receive_buffer(w, peer, slot);
    const auto& header = *reinterpret_cast<const BatchHeader*>(buffer);
    check_header(header, ranks_, config_, static_cast<std::size_t>(bytes));
    if (header.source != static_cast<std::uint32_t>(peer)) throw Error("a batch arrived from another rank than its header names");
    sink.deliver(worker, header, buffer + kBatchHeaderBytes);
    ++w.peers[static_cast<std::size_t>(peer)].freed;
    {
      std::lock_guard lock(mpi_);
      post_data_receive(worker, peer, slot);
    }
    arrived = true;
  }
  return_credits(worker, !arrived);
  return arrived;
}

// Sends each source the running count of its batches consumed here, once
// half its buffers are free again, or when nothing else arrived.
void MpiTwoSidedTransport::return_credits(unsigned worker, bool idle) {
  Worker& w = workers_[worker];
  const std::uint64_t batch = std::max(1u, (config_.buffers + 1) / 2);
  for (int s = 0; s < ranks_; ++s) {
    Peer& p = w.peers[static_cast<std::size_t>(s)];
    const std::uint64_t pending = p.freed - p.returned;
    if (pending == 0 || (pending < batch && !idle)) continue;
    std::lock_guard lock(mpi_);
    if (p.credit_send != MPI_REQUEST_NULL) {
      int done = 0;
      MPI_Test(&p.credit_send, &done, MPI_STATUS_IGNORE);
      if (!done) continue;
    }
    p.credit_out = p.freed;
    MPI_Isend(&p.credit_out, 1, MPI_UINT64_T, s, credit_tag(worker), comm_, &p.credit_send);
    p.returned = p.freed;
  }
}

// Nothing of this worker's in flight: every batch sent was consumed and
// acknowledged, every credit returned and its message sent.
bool MpiTwoSidedTransport::quiet(unsigned worker) {
  Worker& w = workers_[worker];
  std::lock_guard lock(mpi_);
  for (Peer& p : w.peers) {
    if (p.credited != p.acquired || p.returned != p.freed) return false;
    if (p.credit_send != MPI_REQUEST_NULL) {
      int done = 0;
      MPI_Test(&p.credit_send, &done, MPI_STATUS_IGNORE);
      if (!done) return false;
    }
  }
  int done = 0;
  MPI_Testall(static_cast<int>(w.sends.size()), w.sends.data(), &done, MPI_STATUSES_IGNORE);
  return done != 0;
}

void MpiTwoSidedTransport::finish(unsigned worker, BatchSink& sink) {
  IdleBackoff backoff;
  while (!quiet(worker)) {
    if (poll(worker, sink)) backoff.busy();
    else backoff.idle();
  }
}

}  // namespace hpcdb
