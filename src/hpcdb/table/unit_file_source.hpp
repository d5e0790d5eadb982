#pragma once
// The shape shared by table sources whose files are sequences of units read
// independently (Parquet row groups, Arrow IPC record batches). Opening reads
// the first file's schema and projects it; rank r describes files r,
// r + ranks, ... (the rows of each unit, the projected bytes), checking that
// each has the first file's schema; the descriptions are gathered and the
// units dealt to ranks (share_dealing.hpp). Reading reads this rank's units
// of every file. A format supplies the three file operations.
#include <arrow/record_batch.h>
#include <arrow/type.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hpcdb/table/share_dealing.hpp"
#include "hpcdb/table/table_source.hpp"

namespace hpcdb {

// Where a source's read batches go: empty batches dropped, progress counted,
// columns cast to the engine's types.
class BatchAppender {
 public:
  BatchAppender(DistributedTable& table, ProgressLine* progress) : table_(table), progress_(progress) {}
  void operator()(const std::shared_ptr<arrow::RecordBatch>& batch, const std::string& what);

 private:
  DistributedTable& table_;
  ProgressLine* progress_;
};

class UnitFileSource : public TableSource {
 public:
  const std::shared_ptr<arrow::Schema>& schema() const override { return projected_; }
  std::uint64_t total_rows() const override { return dealt_.total_rows; }
  std::uint64_t estimated_bytes() const override { return estimated_bytes_; }
  std::size_t files() const override { return files_.size(); }
  DistributedTable read(ProgressLine* progress) override;

 protected:
  UnitFileSource(const Cluster& cluster, std::vector<std::string> files, std::string label)
      : cluster_(cluster), files_(std::move(files)), label_(std::move(label)) {}

  // Collective; the derived constructor calls it (it calls the operations below).
  void open(const TableInput& input);

  struct FileUnits {
    std::vector<std::uint64_t> unit_rows;
    std::uint64_t projected_bytes = 0;  // in memory, of the projected columns
  };
  virtual std::shared_ptr<arrow::Schema> read_schema(const std::string& path) = 0;
  // After require_first_schema on the file's schema.
  virtual FileUnits describe_file(const std::string& path) = 0;
  // Hands each batch of the given units (indices within the file, ascending) to `append`.
  virtual void read_units(const std::string& path, const std::vector<int>& units, BatchAppender& append) = 0;

  // UsageError unless `schema` (of the file at `path`) is the first file's.
  void require_first_schema(const std::string& path, const arrow::Schema& schema) const;
  // The projected columns' indices in the files' schema.
  std::vector<int> projected_indices() const;
  const std::shared_ptr<arrow::Schema>& projected() const { return projected_; }
  const std::string& label() const { return label_; }

 private:
  const Cluster& cluster_;
  std::vector<std::string> files_;
  std::string label_;
  std::shared_ptr<arrow::Schema> file_schema_;
  std::shared_ptr<arrow::Schema> projected_;
  DealtUnits dealt_;
  std::uint64_t estimated_bytes_ = 0;
};

}  // namespace hpcdb
