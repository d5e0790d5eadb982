#pragma once
// The keys of a table's rows as the 64-bit values the join and shuffle
// operators take. A single integer, date32 or timestamp column is used
// directly (its value as a signed 64-bit number, uint64 by its bits); strings
// and several columns together are hashed (key_hash.hpp). A row with a null
// in any key column has no key (it matches nothing, as in SQL).
#include <cstdint>
#include <string>
#include <vector>

#include "hpcdb/table/distributed_table.hpp"

namespace hpcdb {

enum class KeyEncoding { direct, hashed };

struct RowKeys {
  std::vector<std::uint64_t> keys;  // one per row of the share, in batch order
  std::vector<std::uint8_t> valid;  // 1 if the row has a key (no null in a key column)
  std::uint64_t nulls = 0;          // rows without a key
};

// How keys of these columns are encoded (the same rule for both join sides).
KeyEncoding key_encoding_for(const std::vector<std::shared_ptr<arrow::DataType>>& key_types);

// The keys of every row. `hash_bits` < 64 keeps only that many low bits of
// each hash (a testing aid that forces collisions; direct keys ignore it).
RowKeys row_keys(const DistributedTable& table, const std::vector<int>& key_columns, KeyEncoding encoding,
                 unsigned hash_bits = 64);

}  // namespace hpcdb
