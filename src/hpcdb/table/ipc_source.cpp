#include "hpcdb/table/ipc_source.hpp"

#include <arrow/io/file.h>
#include <arrow/ipc/reader.h>
#include <arrow/record_batch.h>

#include "hpcdb/core/error.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/unit_file_source.hpp"

namespace hpcdb {
namespace {

std::string cannot_read_ipc(const std::string& path) { return "cannot read Arrow IPC file '" + path + "'"; }

std::shared_ptr<arrow::ipc::RecordBatchFileReader> open_ipc_reader(const std::string& path) {
  try {
    auto file = value_of(arrow::io::MemoryMappedFile::Open(path, arrow::io::FileMode::READ), cannot_read_ipc(path));
    return value_of(arrow::ipc::RecordBatchFileReader::Open(file), cannot_read_ipc(path));
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

// Units are record batches.
class IpcSource : public UnitFileSource {
 public:
  IpcSource(const Cluster& cluster, std::vector<std::string> files, const TableInput& input, std::string label)
      : UnitFileSource(cluster, std::move(files), std::move(label)) {
    open(input);
  }

  TableFormat format() const override { return TableFormat::arrow_ipc; }

 private:
  std::shared_ptr<arrow::Schema> read_schema(const std::string& path) override { return open_ipc_reader(path)->schema(); }

  FileUnits describe_file(const std::string& path) override {
    auto reader = open_ipc_reader(path);
    require_first_schema(path, *reader->schema());
    FileUnits units;
    const std::vector<int> columns = projected_indices();
    for (int b = 0; b < reader->num_record_batches(); ++b) {
      auto batch = value_of(reader->ReadRecordBatch(b), cannot_read_ipc(path));
      units.unit_rows.push_back(static_cast<std::uint64_t>(batch->num_rows()));
      units.projected_bytes += batch_bytes(*value_of(batch->SelectColumns(columns), cannot_read_ipc(path)));
    }
    return units;
  }

  void read_units(const std::string& path, const std::vector<int>& units, BatchAppender& append) override {
    auto reader = open_ipc_reader(path);
    const std::vector<int> columns = projected_indices();
    for (int u : units) {
      auto batch = value_of(reader->ReadRecordBatch(u), cannot_read_ipc(path));
      append(value_of(batch->SelectColumns(columns), cannot_read_ipc(path)), cannot_read_ipc(path));
    }
  }
};

}  // namespace

std::unique_ptr<TableSource> open_ipc_source(const Cluster& cluster, const std::vector<std::string>& files,
                                             const TableInput& input, const std::string& label) {
  return std::make_unique<IpcSource>(cluster, files, input, label);
}

}  // namespace hpcdb
