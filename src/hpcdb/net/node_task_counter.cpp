#include "hpcdb/net/node_task_counter.hpp"

#include <atomic>

namespace hpcdb {

static_assert(std::atomic_ref<std::uint64_t>::is_always_lock_free,
              "a counter shared between processes needs lock-free atomics");

NodeTaskCounter::NodeTaskCounter(const Cluster& cluster)
    : cluster_(cluster), arena_(cluster, sizeof(std::uint64_t)) {
  counter_ = reinterpret_cast<std::uint64_t*>(arena_.segment(0));
}

void NodeTaskCounter::start(std::size_t count) {
  count_ = count;
  if (cluster_.node_rank() == 0) std::atomic_ref<std::uint64_t>(*counter_).store(0, std::memory_order_relaxed);
  MPI_Barrier(cluster_.node());
}

bool NodeTaskCounter::next(std::size_t& task) {
  task = static_cast<std::size_t>(std::atomic_ref<std::uint64_t>(*counter_).fetch_add(1, std::memory_order_relaxed));
  return task < count_;
}

}  // namespace hpcdb
