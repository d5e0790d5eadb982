#include "hpcdb/table/ipc_source.hpp"

#include <arrow/io/file.h>
#include <arrow/ipc/reader.h>
#include <arrow/record_batch.h>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/rank_exchange.hpp"
#include "hpcdb/table/share_dealing.hpp"

namespace hpcdb {
namespace {

std::shared_ptr<arrow::ipc::RecordBatchFileReader> open_reader(const std::string& path) {
  const std::string what = "cannot read Arrow IPC file '" + path + "'";
  try {
    auto file = value_of(arrow::io::MemoryMappedFile::Open(path, arrow::io::FileMode::READ), what);
    return value_of(arrow::ipc::RecordBatchFileReader::Open(file), what);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

class IpcSource : public TableSource {
 public:
  IpcSource(const Cluster& cluster, std::vector<std::string> files, const TableInput& input, std::string label)
      : cluster_(cluster), files_(std::move(files)), label_(std::move(label)) {
    open(input);
  }

  const std::shared_ptr<arrow::Schema>& schema() const override { return projected_; }
  std::uint64_t total_rows() const override { return dealt_.total_rows; }
  std::uint64_t estimated_bytes() const override { return estimated_bytes_; }
  TableFormat format() const override { return TableFormat::arrow_ipc; }
  std::size_t files() const override { return files_.size(); }

  DistributedTable read(ProgressLine* progress) override {
    DistributedTable table;
    table.schema = projected_;
    run_collectively(cluster_.world(), [&] {
      for (std::size_t f = 0; f < files_.size(); ++f) {
        std::shared_ptr<arrow::ipc::RecordBatchFileReader> reader;
        for (std::size_t u = dealt_.first_unit[f]; u < dealt_.first_unit[f + 1]; ++u) {
          if (dealt_.rank[u] != cluster_.rank()) continue;
          if (!reader) reader = open_reader(files_[f]);
          const std::string what = "cannot read Arrow IPC file '" + files_[f] + "'";
          auto batch = value_of(reader->ReadRecordBatch(static_cast<int>(u - dealt_.first_unit[f])), what);
          batch = value_of(batch->SelectColumns(columns_), what);
          if (batch->num_rows() == 0) continue;
          if (progress) progress->add(static_cast<std::uint64_t>(batch->num_rows()), batch_bytes(*batch));
          table.batches.push_back(as_engine_batch(batch, projected_, what));
        }
      }
    });
    return table;
  }

 private:
  void open(const TableInput& input) {
    const int ranks = cluster_.size(), me = cluster_.rank();
    std::vector<std::uint64_t> mine;  // per file: index, batches, rows of each
    run_collectively(cluster_.world(), [&] {
      const std::shared_ptr<arrow::Schema> file_schema = open_reader(files_.front())->schema();
      projected_ = project_schema(*file_schema, input.columns, label_);
      for (const auto& field : projected_->fields()) columns_.push_back(file_schema->GetFieldIndex(field->name()));
      for (std::size_t f = static_cast<std::size_t>(me); f < files_.size(); f += static_cast<std::size_t>(ranks)) {
        auto reader = open_reader(files_[f]);
        if (!reader->schema()->Equals(*file_schema, false)) {
          throw UsageError("Arrow IPC files of the " + label_ + " table differ in their schema ('" + files_.front() +
                           "', '" + files_[f] + "')");
        }
        mine.push_back(f);
        mine.push_back(static_cast<std::uint64_t>(reader->num_record_batches()));
        for (int b = 0; b < reader->num_record_batches(); ++b) {
          auto batch = value_of(reader->ReadRecordBatch(b), "cannot read Arrow IPC file '" + files_[f] + "'");
          mine.push_back(static_cast<std::uint64_t>(batch->num_rows()));
          mine.push_back(batch_bytes(*value_of(batch->SelectColumns(columns_), "cannot project")));
        }
      }
    });
    const GatheredValues all = allgather_values(cluster_, mine);
    std::vector<std::vector<std::uint64_t>> rows_of(files_.size());
    for (std::size_t i = 0; i < all.values.size();) {
      const std::size_t f = all.values[i], batches = all.values[i + 1];
      for (std::size_t b = 0; b < batches; ++b) {
        rows_of[f].push_back(all.values[i + 2 + 2 * b]);
        estimated_bytes_ += all.values[i + 3 + 2 * b];
      }
      i += 2 + 2 * batches;
    }
    dealt_ = deal_file_units(rows_of, ranks);
  }

  const Cluster& cluster_;
  std::vector<std::string> files_;
  std::string label_;
  std::shared_ptr<arrow::Schema> projected_;
  std::vector<int> columns_;
  DealtUnits dealt_;
  std::uint64_t estimated_bytes_ = 0;
};

}  // namespace

std::unique_ptr<TableSource> open_ipc_source(const Cluster& cluster, const std::vector<std::string>& files,
                                             const TableInput& input, const std::string& label) {
  return std::make_unique<IpcSource>(cluster, files, input, label);
}

}  // namespace hpcdb
