#pragma once
// A distributed table written as a directory of Parquet files, one per rank
// (part-00000.parquet, part-00001.parquet, ...; a rank without rows writes
// a file with the schema and no rows), complete or not at all: every rank
// writes its file into a hidden sibling directory (.NAME.partial-PID), each
// file under a temporary name renamed once closed, and rank 0 renames the
// directory over NAME once every rank's file is complete; a failure on any
// rank ends every rank with one message and removes what was written.
// Batches are written as they come (ParquetDirectoryWriter), so that a
// result never has to be in memory whole to reach the files.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/table/distributed_table.hpp"
#include "hpcdb/table/progress_line.hpp"
#include "hpcdb/table/result_sink.hpp"

namespace hpcdb {

struct TableOutput {
  std::string directory;
  bool overwrite = false;  // replace an existing directory (else it is refused)
};

// Collective, before the work: refuses an existing path unless `overwrite`
// (and a path that is not a directory, a parent that is missing or not
// writable) on every rank with one UsageError.
void check_table_output(const Cluster& cluster, const TableOutput& output, const std::string& option);

struct WriteStats {
  std::uint64_t bytes = 0;  // of this rank's file
  std::string file;         // its final path
  // Each column's name and encoding in this rank's file (parquet_encodings.hpp;
  // "default": Arrow's, a dictionary given up past 64 KiB, for booleans plain).
  std::vector<std::pair<std::string, std::string>> encodings;
};

class ParquetDirectoryWriter final : public ResultSink {
 public:
  // Collective: refuses the output as check_table_output does, makes the
  // hidden directory, checks the space for a tenth of `expected_bytes` (the
  // result in memory, all ranks: Parquet compresses) and opens this rank's
  // file. Failures are agreed: every rank throws the same error.
  ParquetDirectoryWriter(const Cluster& cluster, std::shared_ptr<arrow::Schema> schema, TableOutput output,
                         std::uint64_t expected_bytes, ProgressLine* progress = nullptr);
  // Without commit(): whatever was written is removed.
  ~ParquetDirectoryWriter() override;
  ParquetDirectoryWriter(const ParquetDirectoryWriter&) = delete;
  ParquetDirectoryWriter& operator=(const ParquetDirectoryWriter&) = delete;

  // Writes this rank's batch; a failure is held until agree() or commit().
  void consume(std::shared_ptr<arrow::RecordBatch> batch) override;
  void agree() override;
  // Collective: writes this rank's share (failures agreed).
  void write_share(const DistributedTable& share);
  bool keeps_batches() const override { return false; }
  std::string phase() const override { return "write"; }
  // Collective: closes every rank's file and puts the directory in place
  // (a held failure of any rank ends every rank instead).
  WriteStats commit();
  // Rows this rank has written.
  std::uint64_t rows_written() const { return rows_; }

 private:
  struct OpenFile;
  void open_file();  // this rank's, in the hidden directory
  void start_writer();
  void write_local(const std::shared_ptr<arrow::RecordBatch>& batch);
  void write_row_groups(bool last);  // the pending rows' whole row groups (`last`: all of them)
  void discard();    // closes this rank's file; rank 0 removes the hidden directory

  const Cluster& cluster_;
  std::shared_ptr<arrow::Schema> schema_;
  TableOutput output_;
  ProgressLine* progress_;
  std::string staging_;  // the hidden directory, on every rank
  std::unique_ptr<OpenFile> file_;
  bool committed_ = false;
  HeldFailure failure_;  // of consume, until agreed
  std::uint64_t rows_ = 0;
};

// Collective: the share written at once (ParquetDirectoryWriter).
WriteStats write_parquet_directory(const Cluster& cluster, const DistributedTable& table, const TableOutput& output,
                                   ProgressLine* progress = nullptr);

// The name of rank r's file.
std::string part_file_name(int rank);

}  // namespace hpcdb
