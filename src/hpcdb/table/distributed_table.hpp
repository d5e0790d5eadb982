#pragma once
// A distributed table as one rank holds it: its share of the rows as Arrow
// record batches, all of one schema. The rows of all ranks together are the
// table; rank r's rows come after rank r-1's (global row numbers, below).
#include <arrow/record_batch.h>
#include <arrow/table.h>
#include <arrow/type.h>

#include <cstdint>
#include <memory>
#include <vector>


namespace hpcdb {

struct DistributedTable {
  std::shared_ptr<arrow::Schema> schema;
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;  // this rank's share

  std::int64_t rows() const;
  // Each batch's first row in the share, then the share's row count.
  std::vector<std::uint64_t> batch_first_rows() const;
  // Bytes of the batches' buffers (what the share takes in memory; a slice
  // counts its whole buffers).
  std::uint64_t bytes() const;
};

// Bytes of a batch's buffers.
std::uint64_t batch_bytes(const arrow::RecordBatch& batch);

// This rank's share as one Arrow table (no copy).
std::shared_ptr<arrow::Table> to_arrow_table(const DistributedTable& table);

// A rank's share from an Arrow table (no copy; chunks become batches).
DistributedTable from_arrow_table(const std::shared_ptr<arrow::Table>& table);

}  // namespace hpcdb
