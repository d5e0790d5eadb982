#include "hpcdb/data/pair_file.hpp"

#include "hpcdb/data/shared_file_writer.hpp"

namespace hpcdb {

static_assert(sizeof(MatchPair) == 2 * sizeof(std::uint64_t));

void write_pair_file(const Cluster& cluster, const std::string& path, const std::vector<MatchPair>& pairs) {
  write_two_column_file(cluster, path, "pair file", reinterpret_cast<const std::uint64_t*>(pairs.data()), pairs.size(),
                        "rid_r,rid_s");
}

}  // namespace hpcdb
