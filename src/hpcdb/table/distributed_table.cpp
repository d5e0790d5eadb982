#include "hpcdb/table/distributed_table.hpp"

#include <arrow/array.h>
#include <arrow/buffer.h>

#include "hpcdb/table/arrow_status.hpp"

namespace hpcdb {
namespace {

std::uint64_t buffer_bytes(const arrow::ArrayData& data) {
  std::uint64_t sum = 0;
  for (const std::shared_ptr<arrow::Buffer>& buffer : data.buffers) {
    if (buffer) sum += static_cast<std::uint64_t>(buffer->size());
  }
  for (const std::shared_ptr<arrow::ArrayData>& child : data.child_data) sum += buffer_bytes(*child);
  return sum;
}

}  // namespace

std::vector<std::uint64_t> DistributedTable::batch_first_rows() const {
  std::vector<std::uint64_t> first{0};
  for (const auto& batch : batches) first.push_back(first.back() + static_cast<std::uint64_t>(batch->num_rows()));
  return first;
}

std::int64_t DistributedTable::rows() const {
  std::int64_t sum = 0;
  for (const auto& batch : batches) sum += batch->num_rows();
  return sum;
}

std::uint64_t batch_bytes(const arrow::RecordBatch& batch) {
  std::uint64_t sum = 0;
  for (const std::shared_ptr<arrow::ArrayData>& column : batch.column_data()) sum += buffer_bytes(*column);
  return sum;
}

std::uint64_t DistributedTable::bytes() const {
  std::uint64_t sum = 0;
  for (const auto& batch : batches) sum += batch_bytes(*batch);
  return sum;
}

std::shared_ptr<arrow::Table> to_arrow_table(const DistributedTable& table) {
  return value_of(arrow::Table::FromRecordBatches(table.schema, table.batches), "cannot form a table of the batches");
}

DistributedTable from_arrow_table(const std::shared_ptr<arrow::Table>& table) {
  DistributedTable result;
  result.schema = table->schema();
  arrow::TableBatchReader reader(*table);
  // Row locations number a batch's rows in 32 bits (row_gather.hpp).
  reader.set_chunksize(std::int64_t{1} << 31);
  for (;;) {
    std::shared_ptr<arrow::RecordBatch> batch;
    check_arrow(reader.ReadNext(&batch), "cannot read the table's batches");
    if (!batch) break;
    if (batch->num_rows() > 0) result.batches.push_back(std::move(batch));
  }
  return result;
}

}  // namespace hpcdb
