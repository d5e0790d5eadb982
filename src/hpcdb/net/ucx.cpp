#include "hpcdb/net/ucx.hpp"

#include <cstring>
#include <string>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

void check_ucx(ucs_status_t status, const char* what) {
  if (status != UCS_OK) throw Error(std::string("UCX: ") + what + " failed: " + ucs_status_string(status));
}

UcxContext::UcxContext(std::uint64_t features, bool shared_workers) {
  ucp_config_t* config = nullptr;
  check_ucx(ucp_config_read(nullptr, nullptr, &config), "reading the configuration (UCX_* variables)");
  ucp_params_t params{};
  params.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED;
  params.features = features;
  params.mt_workers_shared = shared_workers ? 1 : 0;
  const ucs_status_t status = ucp_init(&params, config, &context_);
  ucp_config_release(config);
  check_ucx(status, "initialising a context (is any UCX transport usable here? see UCX_TLS)");
}

UcxContext::~UcxContext() {
  if (context_ != nullptr) ucp_cleanup(context_);
}

UcxWorker::UcxWorker(const UcxContext& context) {
  ucp_worker_params_t params{};
  params.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  params.thread_mode = UCS_THREAD_MODE_SERIALIZED;
  check_ucx(ucp_worker_create(context.handle(), &params, &worker_), "creating a worker");
}

UcxWorker::~UcxWorker() {
  if (worker_ != nullptr) ucp_worker_destroy(worker_);
}

std::vector<std::byte> UcxWorker::address() const {
  ucp_address_t* address = nullptr;
  std::size_t length = 0;
  check_ucx(ucp_worker_get_address(worker_, &address, &length), "reading a worker address");
  std::vector<std::byte> bytes(length);
  std::memcpy(bytes.data(), address, length);
  ucp_worker_release_address(worker_, address);
  return bytes;
}

void UcxWorker::progress() {
  for (int round = 0; round < 8 && ucp_worker_progress(worker_) != 0; ++round) {
  }
}

UcxEndpoint::UcxEndpoint(UcxWorker& worker, const std::vector<std::byte>& remote_address) : worker_(worker) {
  ucp_ep_params_t params{};
  params.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
  params.address = reinterpret_cast<const ucp_address_t*>(remote_address.data());
  check_ucx(ucp_ep_create(worker.handle(), &params, &ep_), "connecting to a peer's worker");
}

UcxEndpoint::~UcxEndpoint() {
  if (ep_ == nullptr) return;
  ucp_request_param_t param{};
  param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  param.flags = UCP_EP_CLOSE_FLAG_FORCE;
  ucs_status_ptr_t request = ucp_ep_close_nbx(ep_, &param);
  if (UCS_PTR_IS_PTR(request)) {
    while (ucp_request_check_status(request) == UCS_INPROGRESS) ucp_worker_progress(worker_.handle());
    ucp_request_free(request);
  }
}

UcxRegion::UcxRegion(const UcxContext& context, void* data, std::size_t bytes)
    : context_(context), data_(static_cast<const std::byte*>(data)), bytes_(bytes) {
  ucp_mem_map_params_t params{};
  params.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
  params.address = data;
  params.length = bytes;
  check_ucx(ucp_mem_map(context.handle(), &params, &memh_), "registering memory");
}

UcxRegion::~UcxRegion() {
  if (memh_ != nullptr) ucp_mem_unmap(context_.handle(), memh_);
}

bool UcxRegion::contains(const void* p, std::size_t bytes) const {
  const auto* b = static_cast<const std::byte*>(p);
  return b >= data_ && b + bytes <= data_ + bytes_;
}

void UcxRegistrations::add(void* data, std::size_t bytes) {
  regions_.push_back(std::make_unique<UcxRegion>(context_, data, bytes));
}

ucp_request_param_t UcxRegistrations::params_for(const void* data, std::size_t bytes) const {
  ucp_request_param_t param{};
  for (const auto& region : regions_) {
    if (region->contains(data, bytes)) {
      param.op_attr_mask = UCP_OP_ATTR_FIELD_MEMH;
      param.memh = region->handle();
      break;
    }
  }
  return param;
}

std::vector<std::vector<std::vector<std::byte>>> allgather_addresses(
    MPI_Comm comm, const std::vector<std::vector<std::byte>>& mine) {
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  // Lengths first, then all addresses back to back.
  std::vector<int> my_lengths;
  std::vector<std::byte> packed;
  for (const auto& a : mine) {
    my_lengths.push_back(static_cast<int>(a.size()));
    packed.insert(packed.end(), a.begin(), a.end());
  }
  const int per_rank = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(ranks * per_rank));
  MPI_Allgather(my_lengths.data(), per_rank, MPI_INT, lengths.data(), per_rank, MPI_INT, comm);
  std::vector<int> totals(static_cast<std::size_t>(ranks), 0);
  std::vector<int> displacements(static_cast<std::size_t>(ranks), 0);
  for (int r = 0; r < ranks; ++r) {
    for (int w = 0; w < per_rank; ++w) totals[static_cast<std::size_t>(r)] += lengths[static_cast<std::size_t>(r * per_rank + w)];
    if (r > 0) displacements[static_cast<std::size_t>(r)] = displacements[static_cast<std::size_t>(r - 1)] + totals[static_cast<std::size_t>(r - 1)];
  }
  std::vector<std::byte> all(static_cast<std::size_t>(displacements.back() + totals.back()));
  MPI_Allgatherv(packed.data(), static_cast<int>(packed.size()), MPI_BYTE, all.data(), totals.data(),
                 displacements.data(), MPI_BYTE, comm);
  std::vector<std::vector<std::vector<std::byte>>> result(static_cast<std::size_t>(ranks));
  std::size_t at = 0;
  for (int r = 0; r < ranks; ++r) {
    for (int w = 0; w < per_rank; ++w) {
      const auto length = static_cast<std::size_t>(lengths[static_cast<std::size_t>(r * per_rank + w)]);
      result[static_cast<std::size_t>(r)].emplace_back(all.begin() + static_cast<std::ptrdiff_t>(at),
                                                       all.begin() + static_cast<std::ptrdiff_t>(at + length));
      at += length;
    }
  }
  return result;
}

}  // namespace hpcdb
