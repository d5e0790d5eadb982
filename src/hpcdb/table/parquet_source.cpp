#include "hpcdb/table/parquet_source.hpp"

#include <arrow/io/file.h>
#include <arrow/record_batch.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/schema.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/rank_exchange.hpp"
#include "hpcdb/table/share_dealing.hpp"

namespace hpcdb {
namespace {

std::unique_ptr<parquet::arrow::FileReader> open_reader(const std::string& path) {
  const std::string what = "cannot read Parquet file '" + path + "'";
  std::shared_ptr<arrow::io::ReadableFile> file = value_of(arrow::io::ReadableFile::Open(path), what);
  parquet::ArrowReaderProperties properties(false);
  properties.set_pre_buffer(true);
  properties.set_batch_size(std::int64_t{1} << 16);
  parquet::arrow::FileReaderBuilder builder;
  try {
    check_arrow(builder.Open(file), what);
    builder.properties(properties);
    return value_of(builder.Build(), what);
  } catch (const parquet::ParquetException& e) {
    throw UsageError(what + ": " + e.what());
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

std::shared_ptr<arrow::Schema> schema_of(parquet::arrow::FileReader& reader, const std::string& path) {
  std::shared_ptr<arrow::Schema> schema;
  check_arrow(reader.GetSchema(&schema), "cannot read the schema of Parquet file '" + path + "'");
  return schema;
}

// Leaf column indices of the projected fields (flat schemas: one leaf each).
std::vector<int> leaf_columns(parquet::arrow::FileReader& reader, const arrow::Schema& file_schema,
                              const arrow::Schema& projected, const std::string& path) {
  const parquet::arrow::SchemaManifest& manifest = reader.manifest();
  std::vector<int> leaves;
  for (const auto& field : projected.fields()) {
    const int index = file_schema.GetFieldIndex(field->name());
    const parquet::arrow::SchemaField& schema_field = manifest.schema_fields.at(static_cast<std::size_t>(index));
    if (!schema_field.is_leaf()) throw UsageError("column '" + field->name() + "' of '" + path + "' is nested");
    leaves.push_back(schema_field.column_index);
  }
  return leaves;
}

class ParquetSource : public TableSource {
 public:
  ParquetSource(const Cluster& cluster, std::vector<std::string> files, const TableInput& input, std::string label)
      : cluster_(cluster), files_(std::move(files)), label_(std::move(label)) {
    open(input);
  }

  const std::shared_ptr<arrow::Schema>& schema() const override { return projected_; }
  std::uint64_t total_rows() const override { return dealt_.total_rows; }
  std::uint64_t estimated_bytes() const override { return estimated_bytes_; }
  TableFormat format() const override { return TableFormat::parquet; }
  std::size_t files() const override { return files_.size(); }

  DistributedTable read(ProgressLine* progress) override {
    DistributedTable table;
    table.schema = projected_;
    run_collectively(cluster_.world(), [&] {
      for (std::size_t f = 0; f < files_.size(); ++f) {
        std::vector<int> groups;
        for (std::size_t u = dealt_.first_unit[f]; u < dealt_.first_unit[f + 1]; ++u) {
          if (dealt_.rank[u] == cluster_.rank()) groups.push_back(static_cast<int>(u - dealt_.first_unit[f]));
        }
        if (!groups.empty()) read_groups(f, groups, table, progress);
      }
    });
    return table;
  }

 private:
  void open(const TableInput& input) {
    const int ranks = cluster_.size(), me = cluster_.rank();
    // Footers: rank r those of files r, r + ranks, ...; each file as
    // (file index, groups, rows of each group, uncompressed bytes of the projected columns).
    std::vector<std::uint64_t> mine;
    run_collectively(cluster_.world(), [&] {
      auto first = open_reader(files_.front());
      file_schema_ = schema_of(*first, files_.front());
      projected_ = project_schema(*file_schema_, input.columns, label_);
      for (std::size_t f = static_cast<std::size_t>(me); f < files_.size(); f += static_cast<std::size_t>(ranks)) {
        describe_file(f, mine);
      }
    });
    const GatheredValues all = allgather_values(cluster_, mine);
    std::vector<std::vector<std::uint64_t>> rows_of(files_.size());
    for (std::size_t i = 0; i < all.values.size();) {
      const std::size_t f = all.values[i], groups = all.values[i + 1];
      rows_of[f].assign(all.values.begin() + static_cast<std::ptrdiff_t>(i + 2),
                        all.values.begin() + static_cast<std::ptrdiff_t>(i + 2 + groups));
      estimated_bytes_ += all.values[i + 2 + groups];
      i += 3 + groups;
    }
    dealt_ = deal_file_units(rows_of, ranks);
  }

  void describe_file(std::size_t f, std::vector<std::uint64_t>& out) {
    auto reader = open_reader(files_[f]);
    const std::shared_ptr<arrow::Schema> schema = schema_of(*reader, files_[f]);
    if (!schema->Equals(*file_schema_, false)) {
      throw UsageError("Parquet files of the " + label_ + " table differ in their schema: '" + files_.front() + "' has " +
                       file_schema_->ToString() + ", '" + files_[f] + "' has " + schema->ToString());
    }
    const std::vector<int> leaves = leaf_columns(*reader, *schema, *projected_, files_[f]);
    const std::shared_ptr<parquet::FileMetaData> meta = reader->parquet_reader()->metadata();
    out.push_back(f);
    out.push_back(static_cast<std::uint64_t>(meta->num_row_groups()));
    std::uint64_t bytes = 0;
    for (int g = 0; g < meta->num_row_groups(); ++g) {
      const std::unique_ptr<parquet::RowGroupMetaData> group = meta->RowGroup(g);
      out.push_back(static_cast<std::uint64_t>(group->num_rows()));
      for (int leaf : leaves) bytes += static_cast<std::uint64_t>(group->ColumnChunk(leaf)->total_uncompressed_size());
    }
    out.push_back(bytes);
  }

  void read_groups(std::size_t f, const std::vector<int>& groups, DistributedTable& table, ProgressLine* progress) {
    const std::string what = "cannot read Parquet file '" + files_[f] + "'";
    auto reader = open_reader(files_[f]);
    const std::shared_ptr<arrow::Schema> schema = schema_of(*reader, files_[f]);
    const std::vector<int> leaves = leaf_columns(*reader, *schema, *projected_, files_[f]);
    try {
      std::unique_ptr<arrow::RecordBatchReader> batches = value_of(reader->GetRecordBatchReader(groups, leaves), what);
      for (;;) {
        std::shared_ptr<arrow::RecordBatch> batch;
        check_arrow(batches->ReadNext(&batch), what);
        if (!batch) break;
        if (batch->num_rows() == 0) continue;
        if (progress) progress->add(static_cast<std::uint64_t>(batch->num_rows()), batch_bytes(*batch));
        table.batches.push_back(as_engine_batch(batch, projected_, what));
      }
    } catch (const parquet::ParquetException& e) {
      throw UsageError(what + ": " + e.what());
    }
  }

  const Cluster& cluster_;
  std::vector<std::string> files_;
  std::string label_;
  std::shared_ptr<arrow::Schema> file_schema_;
  std::shared_ptr<arrow::Schema> projected_;
  DealtUnits dealt_;
  std::uint64_t estimated_bytes_ = 0;
};

}  // namespace

std::unique_ptr<TableSource> open_parquet_source(const Cluster& cluster, const std::vector<std::string>& files,
                                                 const TableInput& input, const std::string& label) {
  return std::make_unique<ParquetSource>(cluster, files, input, label);
}

}  // namespace hpcdb
