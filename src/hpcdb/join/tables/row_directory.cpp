#include "hpcdb/join/tables/row_directory.hpp"

#include "hpcdb/net/collectives.hpp"

namespace hpcdb {

RowDirectory::RowDirectory(const Cluster& cluster, const DistributedTable& table) {
  const std::vector<std::uint64_t> rows = allgather<std::uint64_t>(static_cast<std::uint64_t>(table.rows()), cluster.world());
  first_.assign(rows.size() + 1, 0);
  for (std::size_t r = 0; r < rows.size(); ++r) first_[r + 1] = first_[r] + rows[r];
}

}  // namespace hpcdb
