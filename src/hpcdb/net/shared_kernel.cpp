#include "hpcdb/net/shared_kernel.hpp"

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace hpcdb {
namespace {

// A hash of the running kernel's boot id (random per boot, the same in every
// namespace), or 0 when it cannot be read.
std::uint64_t kernel_boot_id() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  if (!(in >> id) || id.empty()) return 0;
  const std::uint64_t h = std::hash<std::string>{}(id);
  return h == 0 ? 1 : h;
}

}  // namespace

bool nodes_share_a_kernel(const Cluster& cluster) {
  const std::uint64_t mine = kernel_boot_id();
  std::vector<std::uint64_t> ids(static_cast<std::size_t>(cluster.size()));
  MPI_Allgather(&mine, 1, MPI_UINT64_T, ids.data(), 1, MPI_UINT64_T, cluster.world());
  int shared = 0;
  for (int r = 0; r < cluster.size(); ++r) {
    if (mine != 0 && cluster.node_rank_of(r) < 0 && ids[static_cast<std::size_t>(r)] == mine) shared = 1;
  }
  MPI_Allreduce(MPI_IN_PLACE, &shared, 1, MPI_INT, MPI_LOR, cluster.world());
  return shared != 0;
}

}  // namespace hpcdb
