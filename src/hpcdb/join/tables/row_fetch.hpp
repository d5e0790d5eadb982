#pragma once
// Late materialization: the rows a join result needs, fetched column by
// column from the ranks that hold them (the 2012 thesis's payload
// splitting, for table columns: join/payload/payload_fetch.hpp does it for
// generated payloads). The requests (global row numbers, grouped by owner)
// go out once; each column then comes back in one exchange of Arrow
// batches, the owner taking the asked rows of its share, and is put into
// the requests' order. Collective.
#include <arrow/array.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "hpcdb/join/tables/row_directory.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/table/distributed_table.hpp"

namespace hpcdb {

class RowFetch {
 public:
  // Collective: every rank asks for its `rows` of `table`.
  RowFetch(const Cluster& cluster, const DistributedTable& table, const RowDirectory& directory,
           const std::vector<std::uint64_t>& rows, std::uint64_t& bytes_sent);

  // Collective: column `column` of the asked rows, in the order asked.
  std::shared_ptr<arrow::Array> column(int column, std::uint64_t& bytes_sent) const;

 private:
  const Cluster& cluster_;
  const DistributedTable& table_;
  std::vector<std::vector<std::uint64_t>> asked_;  // per source rank: local rows it asked for
  std::vector<std::uint64_t> placement_;           // request i's position among the answers (source order)
  bool in_order_ = true;                           // placement is the identity
};

}  // namespace hpcdb
