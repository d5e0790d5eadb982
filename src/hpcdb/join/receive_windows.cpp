#include "hpcdb/join/receive_windows.hpp"

#include <algorithm>

#include "hpcdb/net/collectives.hpp"

namespace hpcdb {

namespace {
constexpr double kSkewSlack = 1.5;   // capacity over the mean share
constexpr double kGrowthSlack = 1.25;  // when a run needs more than that
}  // namespace

ReceiveWindows::ReceiveWindows(const Cluster& cluster, std::size_t capacity, WindowWrites writes)
    : cluster_(cluster),
      writes_(writes),
      needs_puts_(writes == WindowWrites::puts_only || (writes == WindowWrites::stores_and_puts && cluster.node_count() > 1)),
      // The mean share is backed now, the skew slack only when skew writes it.
      arena_(cluster, capacity, static_cast<std::size_t>(static_cast<double>(capacity) / kSkewSlack)) {}

std::size_t ReceiveWindows::capacity_for(std::uint64_t inner, std::uint64_t outer, int ranks, unsigned tuple_bytes) {
  const double share = static_cast<double>(inner + outer) / ranks;
  return static_cast<std::size_t>(std::min(share * kSkewSlack, static_cast<double>(inner + outer))) * tuple_bytes +
         2 * 4096;
}

bool ReceiveWindows::open(std::size_t bytes) {
  const int grow = allreduce(bytes > capacity() ? 1 : 0, MPI_MAX, cluster_.world());
  if (grow) arena_ = NodeSharedArena(cluster_, static_cast<std::size_t>(static_cast<double>(bytes) * kGrowthSlack) + 4096);
  if (needs_puts_) {
    window_ = std::make_unique<RmaWindow>(own(), bytes, cluster_.world());
    writer_ = std::make_unique<OneSidedWriter>(window_->handle());
  }
  return grow != 0;
}

void ReceiveWindows::close() {
  if (window_) window_->close_epoch();
  MPI_Barrier(cluster_.world());
  writer_.reset();
  window_.reset();
}

}  // namespace hpcdb
