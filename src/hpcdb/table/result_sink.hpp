#pragma once
// Where an operator's result goes as it is made: kept in memory as this
// rank's share (TableSink), or written batch by batch and let go (a Parquet
// directory, parquet_directory_writer.hpp). An operator makes its result in
// slices, so that a result written to files never has to fit in memory
// whole.
#include <arrow/record_batch.h>

#include <memory>
#include <string>

#include "hpcdb/table/distributed_table.hpp"

namespace hpcdb {

class ResultSink {
 public:
  virtual ~ResultSink() = default;
  // This rank's batch (which may have no rows); ranks may hand over
  // different numbers of batches. A failure is held, and nothing more
  // written, until agree().
  virtual void consume(std::shared_ptr<arrow::RecordBatch> batch) = 0;
  // Collective: if consume failed on any rank since the last call, every
  // rank throws the same error. Operators call it every few batches and at
  // the end: a failed write ends the job after a few batches' work, and no
  // rank waits for the others at every batch (a collective per batch cost
  // 5-8% of SF10's Parquet-to-Parquet join, each rank waiting in turn).
  virtual void agree() {}
  // Whether the batches stay in memory once consumed.
  virtual bool keeps_batches() const = 0;
  // The phase its work is reported under ("write"), or empty: none worth one.
  virtual std::string phase() const = 0;
};

// Keeps the batches that have rows: the result in memory.
class TableSink final : public ResultSink {
 public:
  explicit TableSink(std::shared_ptr<arrow::Schema> schema) { table_.schema = std::move(schema); }
  void consume(std::shared_ptr<arrow::RecordBatch> batch) override {
    if (batch->num_rows() > 0) table_.batches.push_back(std::move(batch));
  }
  bool keeps_batches() const override { return true; }
  std::string phase() const override { return {}; }
  DistributedTable& table() { return table_; }

 private:
  DistributedTable table_;
};

}  // namespace hpcdb
