#pragma once
// The join operators' inputs made from two tables: a <key, rid> tuple per
// row that has a key (row_keys.hpp: rows with a null key are left out, as
// they match nothing), rid = the row's global number (row_directory.hpp).
// Direct integer keys are shifted by the smallest key of both sides, so that
// they need as few bits as their range (the operators compress tuples to 8
// bytes when key and rid bits allow). The smaller table is the inner (build)
// relation. The fragments live in node-shared memory, as the operators'
// inputs always do.
#include <cstdint>
#include <vector>

#include "hpcdb/data/relation.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/table/distributed_table.hpp"
#include "hpcdb/table/row_keys.hpp"

namespace hpcdb {

struct KeyRelations {
  Relation inner;
  Relation outer;
  bool left_is_inner = true;
  std::uint64_t left_keyless = 0;   // rows without a key, over all ranks
  std::uint64_t right_keyless = 0;
};

// Collective.
KeyRelations make_key_relations(const Cluster& cluster, const DistributedTable& left, const DistributedTable& right,
                                const std::vector<int>& left_keys, const std::vector<int>& right_keys,
                                KeyEncoding encoding, unsigned hash_bits);

}  // namespace hpcdb
