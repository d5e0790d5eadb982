#pragma once
// UCX (Unified Communication X, from the distribution's libucx) as the
// engine uses it: a context, workers, endpoints and memory registrations,
// each owned by one RAII object, and worker addresses exchanged through MPI
// collectives. UCX picks its transports itself (shared memory and TCP here;
// RC/UD/DC on InfiniBand), which UCX_TLS and UCX_NET_DEVICES override.
#include <mpi.h>
#include <ucp/api/ucp.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace hpcdb {

// Throws Error naming `what` and UCX's reason unless status is UCS_OK.
void check_ucx(ucs_status_t status, const char* what);

class UcxContext {
 public:
  // `features`: UCP_FEATURE_TAG, _AM, _RMA ...; `shared_workers`: workers
  // of this context are used by several threads at once.
  UcxContext(std::uint64_t features, bool shared_workers);
  ~UcxContext();
  UcxContext(const UcxContext&) = delete;
  UcxContext& operator=(const UcxContext&) = delete;
  ucp_context_h handle() const { return context_; }

 private:
  ucp_context_h context_ = nullptr;
};

// A worker that several threads may use, one at a time (the caller
// serializes: UCS_THREAD_MODE_SERIALIZED).
class UcxWorker {
 public:
  explicit UcxWorker(const UcxContext& context);
  ~UcxWorker();
  UcxWorker(const UcxWorker&) = delete;
  UcxWorker& operator=(const UcxWorker&) = delete;
  ucp_worker_h handle() const { return worker_; }
  std::vector<std::byte> address() const;
  // Progresses until nothing more happens (at most a few rounds).
  void progress();

 private:
  ucp_worker_h worker_ = nullptr;
};

class UcxEndpoint {
 public:
  UcxEndpoint(UcxWorker& worker, const std::vector<std::byte>& remote_address);
  // Closes without waiting for the peer (call when no traffic is left).
  ~UcxEndpoint();
  UcxEndpoint(const UcxEndpoint&) = delete;
  UcxEndpoint& operator=(const UcxEndpoint&) = delete;
  ucp_ep_h handle() const { return ep_; }

 private:
  UcxWorker& worker_;
  ucp_ep_h ep_ = nullptr;
};

// Memory the caller owns, registered with the context for zero-copy transfers.
class UcxRegion {
 public:
  UcxRegion(const UcxContext& context, void* data, std::size_t bytes);
  ~UcxRegion();
  UcxRegion(const UcxRegion&) = delete;
  UcxRegion& operator=(const UcxRegion&) = delete;
  ucp_mem_h handle() const { return memh_; }
  bool contains(const void* p, std::size_t bytes) const;
  std::size_t bytes() const { return bytes_; }

 private:
  const UcxContext& context_;
  ucp_mem_h memh_ = nullptr;
  const std::byte* data_;
  std::size_t bytes_;
};

// The regions a design registered, and the request parameters that name
// the region holding a buffer (so UCX need not look it up or register it).
class UcxRegistrations {
 public:
  explicit UcxRegistrations(const UcxContext& context) : context_(context) {}
  void add(void* data, std::size_t bytes);
  ucp_request_param_t params_for(const void* data, std::size_t bytes) const;
  void clear() { regions_.clear(); }

 private:
  const UcxContext& context_;
  std::vector<std::unique_ptr<UcxRegion>> regions_;
};

// Collective over `comm`: every rank gives the addresses of its workers (the
// same number on every rank); returns [rank][worker] addresses.
std::vector<std::vector<std::vector<std::byte>>> allgather_addresses(
    MPI_Comm comm, const std::vector<std::vector<std::byte>>& mine);

}  // namespace hpcdb
