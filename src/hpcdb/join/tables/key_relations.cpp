#include "hpcdb/join/tables/key_relations.hpp"

#include <limits>

#include "hpcdb/data/node_shared_relation.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {
namespace {

std::int64_t smallest_key(const RowKeys& keys) {
  std::int64_t least = std::numeric_limits<std::int64_t>::max();
  for (std::size_t i = 0; i < keys.keys.size(); ++i) {
    if (keys.valid[i]) least = std::min(least, static_cast<std::int64_t>(keys.keys[i]));
  }
  return least;
}

Relation relation_of(const Cluster& cluster, const RowKeys& keys, std::uint64_t first_row, std::uint64_t shift) {
  const std::uint64_t count = keys.keys.size() - keys.nulls;
  const std::uint64_t global = allreduce(count, MPI_SUM, cluster.world());
  Relation relation = node_shared_relation(cluster, count, global);
  Tuple* out = relation.tuples.data();
  std::size_t n = 0;
  for (std::size_t i = 0; i < keys.keys.size(); ++i) {
    if (keys.valid[i]) out[n++] = Tuple{keys.keys[i] - shift, first_row + i};
  }
  MPI_Barrier(cluster.node());  // every fragment is complete before any peer reads it
  return relation;
}

}  // namespace

KeyRelations make_key_relations(const Cluster& cluster, const DistributedTable& left, const DistributedTable& right,
                                const std::vector<int>& left_keys, const std::vector<int>& right_keys,
                                KeyEncoding encoding, unsigned hash_bits) {
  const RowKeys l = row_keys(left, left_keys, encoding, hash_bits);
  const RowKeys r = row_keys(right, right_keys, encoding, hash_bits);
  std::uint64_t shift = 0;
  if (encoding == KeyEncoding::direct) {
    const std::int64_t least = allreduce(std::min(smallest_key(l), smallest_key(r)), MPI_MIN, cluster.world());
    shift = static_cast<std::uint64_t>(least);
  }
  const auto first = [&](const DistributedTable& table) {
    return exclusive_scan_sum(std::vector<std::uint64_t>{static_cast<std::uint64_t>(table.rows())}, cluster.world())[0];
  };
  const std::uint64_t left_first = first(left), right_first = first(right);
  KeyRelations result;
  result.left_keyless = allreduce(l.nulls, MPI_SUM, cluster.world());
  result.right_keyless = allreduce(r.nulls, MPI_SUM, cluster.world());
  Relation left_relation = relation_of(cluster, l, left_first, shift);
  Relation right_relation = relation_of(cluster, r, right_first, shift);
  result.left_is_inner = left_relation.global_size <= right_relation.global_size;
  result.inner = std::move(result.left_is_inner ? left_relation : right_relation);
  result.outer = std::move(result.left_is_inner ? right_relation : left_relation);
  return result;
}

}  // namespace hpcdb
