#include "hpcdb/net/node_task_counter.hpp"

#include <atomic>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

static_assert(std::atomic_ref<std::uint64_t>::is_always_lock_free,
              "a counter shared between processes needs lock-free atomics");

NodeTaskCounter::NodeTaskCounter(const Cluster& cluster) : cluster_(cluster), arena_(cluster, sizeof(std::uint64_t)) {}

std::uint64_t* NodeTaskCounter::counter(int node_rank) const {
  return reinterpret_cast<std::uint64_t*>(arena_.segment(node_rank));
}

void NodeTaskCounter::start(std::vector<std::size_t> counts) {
  if (counts.size() != static_cast<std::size_t>(cluster_.node_size())) {
    throw Error("node task lists: one count per rank of the node expected");
  }
  counts_ = std::move(counts);
  std::atomic_ref<std::uint64_t>(*counter(cluster_.node_rank())).store(0, std::memory_order_relaxed);
  MPI_Barrier(cluster_.node());
}

bool NodeTaskCounter::next(Task& task, bool help_others) {
  const int lists = help_others ? cluster_.node_size() : 1;
  for (int k = 0; k < lists; ++k) {
    const int list = (cluster_.node_rank() + k) % cluster_.node_size();
    const std::size_t count = counts_[static_cast<std::size_t>(list)];
    std::atomic_ref<std::uint64_t> next_index(*counter(list));
    // A plain load first: exhausted lists are passed over without writing
    // to (and taking ownership of) their cache line.
    if (next_index.load(std::memory_order_relaxed) >= count) continue;
    const std::uint64_t index = next_index.fetch_add(1, std::memory_order_relaxed);
    if (index < count) {
      task = {list, static_cast<std::size_t>(index)};
      return true;
    }
  }
  return false;
}

}  // namespace hpcdb
