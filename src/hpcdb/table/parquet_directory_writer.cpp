#include "hpcdb/table/parquet_directory_writer.hpp"

#include <arrow/io/file.h>
#include <arrow/table.h>
#include <fmt/format.h>
#include <parquet/arrow/writer.h>
#include <parquet/exception.h>
#include <unistd.h>

#include <filesystem>
#include <utility>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/interruption.hpp"
#include "hpcdb/core/output_file.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/memory_pool.hpp"
#include "hpcdb/table/parquet_encodings.hpp"

namespace fs = std::filesystem;

namespace hpcdb {
namespace {

// Rows of a row group: about what DuckDB and Spark write, and 8-64 MB a
// column chunk for the columns people have.
constexpr std::int64_t kRowGroupRows = std::int64_t{1} << 20;

// A column's dictionary falls back to plain values past this (Arrow's
// default is 1 MiB): the columns with many distinct values give up soon.
constexpr std::int64_t kDictionaryPageBytes = std::int64_t{64} << 10;

fs::path parent_of(const std::string& directory) {
  fs::path path = fs::path(directory).lexically_normal();
  if (path.has_filename() == false) path = path.parent_path();
  const fs::path parent = path.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

std::string name_of(const std::string& directory) {
  fs::path path = fs::path(directory).lexically_normal();
  if (!path.has_filename()) path = path.parent_path();
  return path.filename().string();
}

// Broadcasts rank 0's string.
std::string broadcast_text(const Cluster& cluster, std::string text) {
  std::uint64_t size = text.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, 0, cluster.world());
  text.resize(size);
  MPI_Bcast(text.data(), static_cast<int>(size), MPI_CHAR, 0, cluster.world());
  return text;
}

// Runs `step` of writing a file, Parquet's exceptions turned into the
// engine's errors (Arrow's statuses are, by check_arrow and value_of).
template <class Step>
void writing(const std::string& what, Step&& step) {
  try {
    step();
  } catch (const parquet::ParquetException& e) {
    throw Error(what + ": " + e.what());
  }
}

}  // namespace

std::string part_file_name(int rank) { return fmt::format("part-{:05d}.parquet", rank); }

void check_table_output(const Cluster& cluster, const TableOutput& output, const std::string& option) {
  run_collectively(cluster.world(), [&] {
    if (cluster.rank() != 0) return;
    const std::string what = "output directory";
    auto refuse = [&](const std::string& reason) { throw UsageError("cannot write " + what + " '" + output.directory + "': " + reason); };
    if (output.directory.empty()) throw UsageError(option + " names no directory");
    std::error_code error;
    const fs::file_status status = fs::symlink_status(output.directory, error);
    if (fs::exists(status)) {
      if (!fs::is_directory(fs::status(output.directory, error))) refuse("it exists and is not a directory");
      if (!output.overwrite) refuse("it exists (remove it, choose another, or pass --overwrite to replace it)");
    }
    const fs::path parent = parent_of(output.directory);
    if (!fs::is_directory(parent, error)) refuse("its parent directory '" + parent.string() + "' does not exist");
    if (access(parent.c_str(), W_OK | X_OK) != 0) refuse("permission denied in '" + parent.string() + "'");
  });
}

struct ParquetDirectoryWriter::OpenFile {
  std::string partial;  // its name while written
  std::string final_part;
  std::string shown;    // its final path, as messages name it
  std::string what;
  TemporaryFileGuard removed_on_interruption;
  std::shared_ptr<arrow::io::FileOutputStream> sink;
  std::unique_ptr<parquet::arrow::FileWriter> writer;  // from the first row group on
  std::vector<std::string> encodings;                  // chosen per column (empty: Arrow's default)
  // Batches not written yet: fewer than kRowGroupRows rows but for the last
  // batch added. Whole row groups are written a column at a time, each
  // column's pages straight to the file (the writer's WriteTable); written a
  // batch at a time, they would be kept in memory until the group is full
  // and copied (WriteRecordBatch's buffered row groups).
  std::vector<std::shared_ptr<arrow::RecordBatch>> pending;
  std::int64_t pending_rows = 0;
};

ParquetDirectoryWriter::ParquetDirectoryWriter(const Cluster& cluster, std::shared_ptr<arrow::Schema> schema,
                                               TableOutput output, std::uint64_t expected_bytes,
                                               ProgressLine* progress)
    : cluster_(cluster), schema_(std::move(schema)), output_(std::move(output)), progress_(progress) {
  check_table_output(cluster, output_, "the output");
  const std::string staging_name = fmt::format(".{}.partial-{}", name_of(output_.directory), getpid());
  run_collectively(cluster.world(), [&] {
    if (cluster.rank() != 0) return;
    staging_ = (parent_of(output_.directory) / staging_name).string();
    std::error_code error;
    fs::create_directory(staging_, error);
    if (error) throw Error("cannot write output directory '" + output_.directory + "': " + error.message());
  });
  staging_ = broadcast_text(cluster, staging_);
  try {
    run_collectively(cluster.world(), [&] {
      if (cluster.rank() == 0) {
        check_output_space({{staging_ + "/" + part_file_name(0), expected_bytes / 10}}, "output directory");
      }
      open_file();
    });
  } catch (...) {
    discard();
    throw;
  }
}

void ParquetDirectoryWriter::open_file() {
  auto file = std::make_unique<OpenFile>();
  file->final_part = staging_ + "/" + part_file_name(cluster_.rank());
  file->partial = staging_ + "/." + part_file_name(cluster_.rank()) + ".partial";
  file->shown = (fs::path(output_.directory) / part_file_name(cluster_.rank())).string();
  file->what = "cannot write Parquet file '" + file->shown + "'";
  file->removed_on_interruption = TemporaryFileGuard(file->partial);
  writing(file->what, [&] {
    file->sink = value_of(arrow::io::FileOutputStream::Open(file->partial), file->what);
  });
  file_ = std::move(file);
}

// Parquet's writer, once the first row group's rows are there: its columns'
// encodings are chosen from them (parquet_encodings.hpp).
void ParquetDirectoryWriter::start_writer() {
  OpenFile& file = *file_;
  writing(file.what, [&] {
    parquet::WriterProperties::Builder properties;
    properties.compression(parquet::Compression::SNAPPY);
    // WriteTable's row groups are capped by this too (Arrow's default is 2^20).
    properties.max_row_group_length(kRowGroupRows);
    properties.memory_pool(table_memory_pool());
    properties.dictionary_pagesize_limit(kDictionaryPageBytes);
    // Decimals of up to 18 digits as 64-bit integers (as DuckDB writes
    // them), not 16-byte fixed-length values: smaller and faster to encode.
    properties.enable_store_decimal_as_integer();
    file.encodings = choose_column_encodings(properties, *schema_, file.pending, kDictionaryPageBytes);
    parquet::ArrowWriterProperties::Builder arrow_properties;
    arrow_properties.store_schema();
    file.writer = value_of(parquet::arrow::FileWriter::Open(*schema_, table_memory_pool(), file.sink,
                                                            properties.build(), arrow_properties.build()),
                           file.what);
  });
}

void ParquetDirectoryWriter::discard() {
  file_.reset();
  if (cluster_.rank() == 0) {
    std::error_code ignored;
    fs::remove_all(staging_, ignored);
  }
}

ParquetDirectoryWriter::~ParquetDirectoryWriter() {
  if (!committed_) discard();
}

void ParquetDirectoryWriter::write_local(const std::shared_ptr<arrow::RecordBatch>& batch) {
  if (!file_) throw Error("the Parquet directory '" + output_.directory + "' is closed");
  if (batch->num_rows() == 0) return;
  if (!batch->schema()->Equals(*schema_, false)) {
    throw Error("cannot write a batch of schema " + batch->schema()->ToString() + " into '" + file_->shown +
                "', whose schema is " + schema_->ToString());
  }
  file_->pending.push_back(batch);
  file_->pending_rows += batch->num_rows();
  if (file_->pending_rows >= kRowGroupRows) write_row_groups(false);
  rows_ += static_cast<std::uint64_t>(batch->num_rows());
  if (progress_) progress_->add(static_cast<std::uint64_t>(batch->num_rows()), batch_bytes(*batch));
}

void ParquetDirectoryWriter::write_row_groups(bool last) {
  OpenFile& file = *file_;
  const std::int64_t rows = last ? file.pending_rows : file.pending_rows / kRowGroupRows * kRowGroupRows;
  if (rows == 0) return;
  if (!file.writer) start_writer();
  const auto pending = value_of(arrow::Table::FromRecordBatches(schema_, file.pending), file.what);
  writing(file.what, [&] { check_arrow(file.writer->WriteTable(*pending->Slice(0, rows), kRowGroupRows), file.what); });
  file.pending = value_of(arrow::TableBatchReader(pending->Slice(rows)).ToRecordBatches(), file.what);
  file.pending_rows -= rows;
}

void ParquetDirectoryWriter::consume(std::shared_ptr<arrow::RecordBatch> batch) {
  failure_.hold([&] { write_local(batch); });
}

void ParquetDirectoryWriter::agree() {
  failure_.agree(cluster_.world());
}

void ParquetDirectoryWriter::write_share(const DistributedTable& share) {
  run_collectively(cluster_.world(), [&] {
    failure_.rethrow();
    for (const auto& batch : share.batches) write_local(batch);
  });
}

WriteStats ParquetDirectoryWriter::commit() {
  WriteStats stats;
  run_collectively(cluster_.world(), [&] {
    failure_.rethrow();
    write_row_groups(true);
    OpenFile& file = *file_;
    if (!file.writer) start_writer();  // no row: a file of the schema alone
    writing(file.what, [&] {
      check_arrow(file.writer->Close(), file.what);
      stats.bytes = static_cast<std::uint64_t>(value_of(file.sink->Tell(), file.what));
      check_arrow(file.sink->Close(), file.what);
    });
    if (::rename(file.partial.c_str(), file.final_part.c_str()) != 0) {
      throw Error(output_error("Parquet file", file.shown, errno));
    }
    file.removed_on_interruption.release();
    stats.file = file.shown;
    for (int c = 0; c < schema_->num_fields(); ++c) {
      const std::string& chosen = file.encodings.at(static_cast<std::size_t>(c));
      stats.encodings.emplace_back(schema_->field(c)->name(), chosen.empty() ? "default" : chosen);
    }
  });
  file_.reset();
  run_collectively(cluster_.world(), [&] {
    if (cluster_.rank() != 0) return;
    std::error_code error;
    const std::string old =
        (parent_of(output_.directory) / fmt::format(".{}.old-{}", name_of(output_.directory), getpid())).string();
    const bool replace = fs::exists(output_.directory, error);
    if (replace) fs::rename(output_.directory, old, error);
    if (!error) fs::rename(staging_, output_.directory, error);
    if (error) throw Error("cannot write output directory '" + output_.directory + "': " + error.message());
    if (replace) fs::remove_all(old, error);
  });
  committed_ = true;
  return stats;
}

WriteStats write_parquet_directory(const Cluster& cluster, const DistributedTable& table, const TableOutput& output,
                                   ProgressLine* progress) {
  const std::uint64_t in_memory = allreduce<std::uint64_t>(table.bytes(), MPI_SUM, cluster.world());
  ParquetDirectoryWriter writer(cluster, table.schema, output, in_memory, progress);
  writer.write_share(table);
  return writer.commit();
}

}  // namespace hpcdb
