#include "hpcdb/shuffle/ucx_tag_wire.hpp"

#include <mpi.h>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

constexpr ucp_tag_t kCreditBit = ucp_tag_t{1} << 63;
constexpr ucp_tag_t kFullMask = ~ucp_tag_t{0};

// Kind, stream (the sending = receiving worker) and source rank.
ucp_tag_t tag_of(bool credit, unsigned worker, int source) {
  return (credit ? kCreditBit : 0) | (static_cast<ucp_tag_t>(worker) << 32) | static_cast<std::uint32_t>(source);
}

}  // namespace

UcxTagWire::UcxTagWire(const Cluster& cluster, const ShuffleConfig& config)
    : cluster_(cluster),
      ranks_(cluster.size()),
      slots_(config.buffers),
      context_(UCP_FEATURE_TAG, false),
      worker_(context_),
      registrations_(context_) {
  const auto addresses = allgather_addresses(cluster.world(), {worker_.address()});
  endpoints_.resize(static_cast<std::size_t>(ranks_));
  for (int p = 0; p < ranks_; ++p) {
    if (p != cluster.rank()) endpoints_[static_cast<std::size_t>(p)] = std::make_unique<UcxEndpoint>(worker_, addresses[static_cast<std::size_t>(p)][0]);
  }
  const auto peers = static_cast<std::size_t>(ranks_);
  workers_.resize(config.threads);
  for (Worker& w : workers_) {
    w.receives.assign(peers * slots_ + peers, nullptr);
    w.sends.assign(peers * slots_, nullptr);
    w.credit_sends.assign(peers, nullptr);
  }
}

UcxTagWire::~UcxTagWire() {
  for (Worker& w : workers_) {
    for (void*& r : w.receives) {
      if (r == nullptr) continue;
      ucp_request_cancel(worker_.handle(), r);
      while (ucp_request_check_status(r) == UCS_INPROGRESS) ucp_worker_progress(worker_.handle());
      ucp_request_free(r);
    }
    for (void*& r : w.sends)
      if (r != nullptr) ucp_request_free(r);
    for (void*& r : w.credit_sends)
      if (r != nullptr) ucp_request_free(r);
  }
  MPI_Barrier(cluster_.world());  // no peer sends any more
  endpoints_.clear();
  MPI_Barrier(cluster_.world());
  registrations_.clear();
}

void UcxTagWire::register_memory(void* data, std::size_t bytes) {
  registrations_.add(data, bytes);
}

void UcxTagWire::post(void*& request, void* buffer, std::size_t bytes, ucp_tag_t tag) {
  ucp_request_param_t param = registrations_.params_for(buffer, bytes);
  // Always a request, also when the message is already there: a null
  // request stands for "nothing posted".
  param.op_attr_mask |= UCP_OP_ATTR_FLAG_NO_IMM_CMPL;
  std::lock_guard lock(mutex_);
  ucs_status_ptr_t r = ucp_tag_recv_nbx(worker_.handle(), buffer, bytes, tag, kFullMask, &param);
  if (UCS_PTR_IS_ERR(r)) check_ucx(UCS_PTR_STATUS(r), "posting a tagged receive");
  request = r;
}

void UcxTagWire::start_send(void*& request, int peer, const void* data, std::size_t bytes, ucp_tag_t tag) {
  const ucp_request_param_t param = registrations_.params_for(data, bytes);
  std::lock_guard lock(mutex_);
  ucs_status_ptr_t r = ucp_tag_send_nbx(endpoints_[static_cast<std::size_t>(peer)]->handle(), data, bytes, tag, &param);
  if (UCS_PTR_IS_ERR(r)) check_ucx(UCS_PTR_STATUS(r), "sending a tagged message");
  request = r;  // nullptr: already complete
}

bool UcxTagWire::done(void*& request) {
  if (request == nullptr) return true;
  std::lock_guard lock(mutex_);
  const ucs_status_t status = ucp_request_check_status(request);
  if (status == UCS_INPROGRESS) return false;
  ucp_request_free(request);
  request = nullptr;
  check_ucx(status, "a tagged send");
  return true;
}

void UcxTagWire::post_receive(unsigned worker, int peer, std::size_t slot, std::byte* buffer, std::size_t bytes) {
  post(workers_[worker].receives[static_cast<std::size_t>(peer) * slots_ + slot], buffer, bytes,
       tag_of(false, worker, peer));
}

void UcxTagWire::post_credit_receive(unsigned worker, int peer, std::uint64_t* landing) {
  post(workers_[worker].receives[static_cast<std::size_t>(ranks_) * slots_ + static_cast<std::size_t>(peer)], landing,
       sizeof *landing, tag_of(true, worker, peer));
}

void UcxTagWire::send(unsigned worker, int peer, std::size_t slot, const std::byte* data, std::size_t bytes) {
  start_send(workers_[worker].sends[static_cast<std::size_t>(peer) * slots_ + slot], peer, data, bytes,
             tag_of(false, worker, cluster_.rank()));
}

bool UcxTagWire::sent(unsigned worker, int peer, std::size_t slot) {
  return done(workers_[worker].sends[static_cast<std::size_t>(peer) * slots_ + slot]);
}

void UcxTagWire::send_credit(unsigned worker, int peer, const std::uint64_t* value) {
  start_send(workers_[worker].credit_sends[static_cast<std::size_t>(peer)], peer, value, sizeof *value,
             tag_of(true, worker, cluster_.rank()));
}

bool UcxTagWire::credit_sent(unsigned worker, int peer) {
  return done(workers_[worker].credit_sends[static_cast<std::size_t>(peer)]);
}

void UcxTagWire::arrivals(unsigned worker, std::vector<Arrival>& out) {
  Worker& w = workers_[worker];
  std::lock_guard lock(mutex_);
  worker_.progress();
  const std::size_t batches = static_cast<std::size_t>(ranks_) * slots_;
  for (std::size_t i = 0; i < w.receives.size(); ++i) {
    void*& r = w.receives[i];
    if (r == nullptr || ucp_request_check_status(r) == UCS_INPROGRESS) continue;
    ucp_tag_recv_info_t info{};
    const ucs_status_t status = ucp_tag_recv_request_test(r, &info);
    ucp_request_free(r);
    r = nullptr;
    check_ucx(status, "a tagged receive");
    if (i >= batches) out.push_back({true, static_cast<int>(i - batches), 0, info.length, nullptr});
    else out.push_back({false, static_cast<int>(i / slots_), i % slots_, info.length, nullptr});
  }
}

}  // namespace hpcdb
