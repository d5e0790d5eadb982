#include "hpcdb/shuffle/mpi_message_wire.hpp"

namespace hpcdb {
namespace {

int data_tag(unsigned worker) { return static_cast<int>(2 * worker); }
int credit_tag(unsigned worker) { return static_cast<int>(2 * worker + 1); }

}  // namespace

MpiMessageWire::MpiMessageWire(const Cluster& cluster, const ShuffleConfig& config)
    : ranks_(cluster.size()), slots_(config.buffers) {
  MPI_Comm_dup(cluster.world(), &comm_);
  const auto peers = static_cast<std::size_t>(ranks_);
  workers_.resize(config.threads);
  for (Worker& w : workers_) {
    w.receives.assign(peers * slots_ + peers, MPI_REQUEST_NULL);
    w.sends.assign(peers * slots_, MPI_REQUEST_NULL);
    w.credit_sends.assign(peers, MPI_REQUEST_NULL);
    w.completed.resize(w.receives.size());
    w.statuses.resize(w.receives.size());
  }
}

MpiMessageWire::~MpiMessageWire() {
  for (Worker& w : workers_) {
    for (MPI_Request& r : w.receives) {
      if (r == MPI_REQUEST_NULL) continue;
      MPI_Cancel(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    for (MPI_Request& r : w.sends)
      if (r != MPI_REQUEST_NULL) MPI_Wait(&r, MPI_STATUS_IGNORE);
    for (MPI_Request& r : w.credit_sends)
      if (r != MPI_REQUEST_NULL) MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

bool MpiMessageWire::test(MPI_Request& request) {
  if (request == MPI_REQUEST_NULL) return true;
  int done = 0;
  std::lock_guard lock(mpi_);
  MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  return done != 0;
}

void MpiMessageWire::post_receive(unsigned worker, int peer, std::size_t slot, std::byte* buffer, std::size_t bytes) {
  std::lock_guard lock(mpi_);
  MPI_Irecv(buffer, static_cast<int>(bytes), MPI_BYTE, peer, data_tag(worker), comm_,
            &workers_[worker].receives[static_cast<std::size_t>(peer) * slots_ + slot]);
}

void MpiMessageWire::post_credit_receive(unsigned worker, int peer, std::uint64_t* landing) {
  Worker& w = workers_[worker];
  std::lock_guard lock(mpi_);
  MPI_Irecv(landing, 1, MPI_UINT64_T, peer, credit_tag(worker), comm_,
            &w.receives[static_cast<std::size_t>(ranks_) * slots_ + static_cast<std::size_t>(peer)]);
}

void MpiMessageWire::send(unsigned worker, int peer, std::size_t slot, const std::byte* data, std::size_t bytes) {
  std::lock_guard lock(mpi_);
  MPI_Isend(data, static_cast<int>(bytes), MPI_BYTE, peer, data_tag(worker), comm_,
            &workers_[worker].sends[static_cast<std::size_t>(peer) * slots_ + slot]);
}

bool MpiMessageWire::sent(unsigned worker, int peer, std::size_t slot) {
  return test(workers_[worker].sends[static_cast<std::size_t>(peer) * slots_ + slot]);
}

void MpiMessageWire::send_credit(unsigned worker, int peer, const std::uint64_t* value) {
  std::lock_guard lock(mpi_);
  MPI_Isend(value, 1, MPI_UINT64_T, peer, credit_tag(worker), comm_,
            &workers_[worker].credit_sends[static_cast<std::size_t>(peer)]);
}

bool MpiMessageWire::credit_sent(unsigned worker, int peer) {
  return test(workers_[worker].credit_sends[static_cast<std::size_t>(peer)]);
}

void MpiMessageWire::arrivals(unsigned worker, std::vector<Arrival>& out) {
  Worker& w = workers_[worker];
  int count = 0;
  {
    std::lock_guard lock(mpi_);
    MPI_Testsome(static_cast<int>(w.receives.size()), w.receives.data(), &count, w.completed.data(),
                 w.statuses.data());
  }
  if (count == MPI_UNDEFINED) return;  // nothing posted (a single rank)
  const std::size_t batches = static_cast<std::size_t>(ranks_) * slots_;
  for (int i = 0; i < count; ++i) {
    const auto index = static_cast<std::size_t>(w.completed[static_cast<std::size_t>(i)]);
    if (index >= batches) {
      out.push_back({true, static_cast<int>(index - batches), 0, sizeof(std::uint64_t)});
      continue;
    }
    int bytes = 0;
    MPI_Get_count(&w.statuses[static_cast<std::size_t>(i)], MPI_BYTE, &bytes);
    out.push_back({false, static_cast<int>(index / slots_), index % slots_, static_cast<std::size_t>(bytes)});
  }
}

}  // namespace hpcdb
