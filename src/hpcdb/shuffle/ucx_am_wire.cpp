#include "hpcdb/shuffle/ucx_am_wire.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

constexpr unsigned kBatchId = 1;
constexpr unsigned kCreditId = 2;

}  // namespace

UcxAmWire::UcxAmWire(const Cluster& cluster, const ShuffleConfig& config)
    : cluster_(cluster),
      ranks_(cluster.size()),
      slots_(config.buffers),
      buffer_bytes_(config.buffer_bytes),
      me_(static_cast<std::uint32_t>(cluster.rank())),
      context_(UCP_FEATURE_AM, config.threads > 1),
      registrations_(context_) {
  const auto peers = static_cast<std::size_t>(ranks_);
  std::vector<std::vector<std::byte>> mine;
  for (unsigned t = 0; t < config.threads; ++t) {
    auto w = std::make_unique<Worker>();
    w->wire = this;
    w->ucx = std::make_unique<UcxWorker>(context_);
    w->free.resize(peers);
    w->credit_landing.assign(peers, nullptr);
    w->sends.assign(peers * slots_, nullptr);
    w->credit_sends.assign(peers, nullptr);
    for (const auto& [id, handler] : {std::pair{kBatchId, &UcxAmWire::on_batch}, std::pair{kCreditId, &UcxAmWire::on_credit}}) {
      ucp_am_handler_param_t param{};
      param.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_FLAGS |
                         UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_ARG;
      param.id = id;
      param.flags = UCP_AM_FLAG_WHOLE_MSG | UCP_AM_FLAG_PERSISTENT_DATA;
      param.cb = handler;
      param.arg = w.get();
      check_ucx(ucp_worker_set_am_recv_handler(w->ucx->handle(), &param), "installing an active-message handler");
    }
    mine.push_back(w->ucx->address());
    workers_.push_back(std::move(w));
  }
  const auto addresses = allgather_addresses(cluster.world(), mine);
  for (unsigned t = 0; t < config.threads; ++t) {
    Worker& w = *workers_[t];
    w.endpoints.resize(peers);
    for (int p = 0; p < ranks_; ++p) {
      if (p == cluster.rank()) continue;
      w.endpoints[static_cast<std::size_t>(p)] = std::make_unique<UcxEndpoint>(*w.ucx, addresses[static_cast<std::size_t>(p)][t]);
    }
  }
}

UcxAmWire::~UcxAmWire() {
  for (auto& w : workers_) {
    for (void*& r : w->sends)
      if (r != nullptr) ucp_request_free(r);
    for (void*& r : w->credit_sends)
      if (r != nullptr) ucp_request_free(r);
  }
  MPI_Barrier(cluster_.world());  // no peer sends any more
  for (auto& w : workers_) w->endpoints.clear();
  MPI_Barrier(cluster_.world());
  registrations_.clear();
  workers_.clear();
}

std::uint64_t UcxAmWire::endpoints() const {
  return static_cast<std::uint64_t>(ranks_ - 1) * workers_.size();
}

void UcxAmWire::register_memory(void* data, std::size_t bytes) {
  registrations_.add(data, bytes);
}

int UcxAmWire::source_of(Worker& w, const void* header, std::size_t header_length) const {
  std::uint32_t source = 0;
  if (header_length == sizeof source) std::memcpy(&source, header, sizeof source);
  if (header_length != sizeof source || source >= static_cast<std::uint32_t>(ranks_)) {
    w.error = "received an active message that no shuffle rank sent";
    return -1;
  }
  return static_cast<int>(source);
}

// Runs inside ucp_worker_progress(): records, never throws.
ucs_status_t UcxAmWire::on_batch(void* arg, const void* header, std::size_t header_length, void* data,
                                 std::size_t length, const ucp_am_recv_param_t* param) {
  Worker& w = *static_cast<Worker*>(arg);
  UcxAmWire& wire = *w.wire;
  const int source = wire.source_of(w, header, header_length);
  if (source < 0) return UCS_OK;
  const bool rendezvous = (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) != 0;
  const bool kept = (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_DATA) != 0;
  if (!rendezvous && kept && reinterpret_cast<std::uintptr_t>(data) % alignof(std::uint64_t) == 0) {
    // Zero-copy: the batch stays in UCX's buffer until release().
    w.ready.push_back({false, source, 0, length, static_cast<const std::byte*>(data)});
    return UCS_INPROGRESS;
  }
  std::vector<FreeBuffer>& free = w.free[static_cast<std::size_t>(source)];
  if (free.empty() || length > wire.buffer_bytes_) {
    w.error = "rank " + std::to_string(source) + " sent more or larger batches than it had credits for";
    return UCS_OK;
  }
  const FreeBuffer target = free.back();
  free.pop_back();
  const Arrival arrival{false, source, target.slot, length, nullptr};
  if (!rendezvous) {
    std::memcpy(target.buffer, data, length);
    w.ready.push_back(arrival);
    return UCS_OK;
  }
  ucp_request_param_t fetch = wire.registrations_.params_for(target.buffer, length);
  fetch.op_attr_mask |= UCP_OP_ATTR_FLAG_NO_IMM_CMPL;
  ucs_status_ptr_t request = ucp_am_recv_data_nbx(w.ucx->handle(), data, target.buffer, length, &fetch);
  if (UCS_PTR_IS_ERR(request)) {
    w.error = std::string("UCX: fetching a batch failed: ") + ucs_status_string(UCS_PTR_STATUS(request));
    return UCS_OK;
  }
  w.fetching.push_back({request, arrival});
  return UCS_OK;
}

ucs_status_t UcxAmWire::on_credit(void* arg, const void* header, std::size_t header_length, void* data,
                                  std::size_t length, const ucp_am_recv_param_t* param) {
  (void)param;
  Worker& w = *static_cast<Worker*>(arg);
  const int source = w.wire->source_of(w, header, header_length);
  if (source < 0) return UCS_OK;
  std::uint64_t* landing = w.credit_landing[static_cast<std::size_t>(source)];
  std::uint64_t value = 0;
  if (length != sizeof value || landing == nullptr) {
    w.error = "received a malformed credit message from rank " + std::to_string(source);
    return UCS_OK;
  }
  std::memcpy(&value, data, sizeof value);
  *landing = std::max(*landing, value);  // counts only grow; messages may overtake each other
  w.ready.push_back({true, source, 0, length, nullptr});
  return UCS_OK;
}

void UcxAmWire::post_receive(unsigned worker, int peer, std::size_t slot, std::byte* buffer, std::size_t bytes) {
  (void)bytes;
  workers_[worker]->free[static_cast<std::size_t>(peer)].push_back({slot, buffer});
}

void UcxAmWire::post_credit_receive(unsigned worker, int peer, std::uint64_t* landing) {
  workers_[worker]->credit_landing[static_cast<std::size_t>(peer)] = landing;
}

void UcxAmWire::start_send(Worker& w, void*& request, unsigned id, int peer, const void* data, std::size_t bytes) {
  const ucp_request_param_t param = registrations_.params_for(data, bytes);
  ucs_status_ptr_t r = ucp_am_send_nbx(w.endpoints[static_cast<std::size_t>(peer)]->handle(), id, &me_, sizeof me_,
                                       data, bytes, &param);
  if (UCS_PTR_IS_ERR(r)) check_ucx(UCS_PTR_STATUS(r), "sending an active message");
  request = r;  // nullptr: already complete
}

bool UcxAmWire::done(Worker& w, void*& request) {
  (void)w;
  if (request == nullptr) return true;
  const ucs_status_t status = ucp_request_check_status(request);
  if (status == UCS_INPROGRESS) return false;
  ucp_request_free(request);
  request = nullptr;
  check_ucx(status, "an active-message send");
  return true;
}

void UcxAmWire::send(unsigned worker, int peer, std::size_t slot, const std::byte* data, std::size_t bytes) {
  Worker& w = *workers_[worker];
  start_send(w, w.sends[static_cast<std::size_t>(peer) * slots_ + slot], kBatchId, peer, data, bytes);
}

bool UcxAmWire::sent(unsigned worker, int peer, std::size_t slot) {
  Worker& w = *workers_[worker];
  return done(w, w.sends[static_cast<std::size_t>(peer) * slots_ + slot]);
}

void UcxAmWire::send_credit(unsigned worker, int peer, const std::uint64_t* value) {
  Worker& w = *workers_[worker];
  start_send(w, w.credit_sends[static_cast<std::size_t>(peer)], kCreditId, peer, value, sizeof *value);
}

bool UcxAmWire::credit_sent(unsigned worker, int peer) {
  Worker& w = *workers_[worker];
  return done(w, w.credit_sends[static_cast<std::size_t>(peer)]);
}

void UcxAmWire::arrivals(unsigned worker, std::vector<Arrival>& out) {
  Worker& w = *workers_[worker];
  w.ucx->progress();
  if (!w.error.empty()) throw Error(w.error);
  for (std::size_t i = 0; i < w.fetching.size();) {
    Fetch& f = w.fetching[i];
    const ucs_status_t status = ucp_request_check_status(f.request);
    if (status == UCS_INPROGRESS) {
      ++i;
      continue;
    }
    ucp_request_free(f.request);
    check_ucx(status, "fetching a batch");
    w.ready.push_back(f.arrival);
    f = w.fetching.back();
    w.fetching.pop_back();
  }
  out.insert(out.end(), w.ready.begin(), w.ready.end());
  w.ready.clear();
}

void UcxAmWire::release(unsigned worker, const Arrival& arrival) {
  ucp_am_data_release(workers_[worker]->ucx->handle(), const_cast<std::byte*>(arrival.data));
}

}  // namespace hpcdb
