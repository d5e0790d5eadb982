#include "hpcdb/table/parquet_directory_writer.hpp"

#include <arrow/io/file.h>
#include <fmt/format.h>
#include <parquet/arrow/writer.h>
#include <parquet/exception.h>
#include <unistd.h>

#include <filesystem>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/interruption.hpp"
#include "hpcdb/core/output_file.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/memory_pool.hpp"

namespace fs = std::filesystem;

namespace hpcdb {
namespace {

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

std::uint64_t write_part(const DistributedTable& table, const std::string& path, const std::string& shown,
                         ProgressLine* progress) {
  const std::string what = "cannot write Parquet file '" + shown + "'";
  TemporaryFileGuard removed_on_interruption(path);
  try {
    auto sink = value_of(arrow::io::FileOutputStream::Open(path), what);
    parquet::WriterProperties::Builder properties;
    properties.compression(parquet::Compression::SNAPPY);
    properties.max_row_group_length(std::int64_t{1} << 20);
    properties.dictionary_pagesize_limit(std::int64_t{64} << 10);
    parquet::ArrowWriterProperties::Builder arrow_properties;
    arrow_properties.store_schema();
    auto writer = value_of(parquet::arrow::FileWriter::Open(*table.schema, table_memory_pool(), sink,
                                                            properties.build(), arrow_properties.build()),
                           what);
    for (const auto& batch : table.batches) {
      check_arrow(writer->WriteRecordBatch(*batch), what);
      if (progress) progress->add(static_cast<std::uint64_t>(batch->num_rows()), batch_bytes(*batch));
    }
    check_arrow(writer->Close(), what);
    const std::int64_t bytes = value_of(sink->Tell(), what);
    check_arrow(sink->Close(), what);
    return static_cast<std::uint64_t>(bytes);
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

WriteStats write_parquet_directory(const Cluster& cluster, const DistributedTable& table, const TableOutput& output,
                                   ProgressLine* progress) {
  check_table_output(cluster, output, "the output");
  const std::string staging_name = fmt::format(".{}.partial-{}", name_of(output.directory), getpid());
  std::string staging;
  run_collectively(cluster.world(), [&] {
    if (cluster.rank() != 0) return;
    staging = (parent_of(output.directory) / staging_name).string();
    std::error_code error;
    fs::create_directory(staging, error);
    if (error) throw Error("cannot write output directory '" + output.directory + "': " + error.message());
    // A lower bound of what the files take (Parquet compresses; a tenth of the in-memory size).
  });
  staging = broadcast_text(cluster, staging);
  const std::uint64_t in_memory = allreduce<std::uint64_t>(table.bytes(), MPI_SUM, cluster.world());
  WriteStats stats;
  stats.file = (fs::path(output.directory) / part_file_name(cluster.rank())).string();
  try {
    run_collectively(cluster.world(), [&] {
      if (cluster.rank() == 0) check_output_space({{staging + "/" + part_file_name(0), in_memory / 10}}, "output directory");
      const std::string final_part = staging + "/" + part_file_name(cluster.rank());
      const std::string partial = staging + "/." + part_file_name(cluster.rank()) + ".partial";
      stats.bytes = write_part(table, partial, stats.file, progress);
      if (::rename(partial.c_str(), final_part.c_str()) != 0) throw Error(output_error("Parquet file", stats.file, errno));
    });
    run_collectively(cluster.world(), [&] {
      if (cluster.rank() != 0) return;
      std::error_code error;
      const std::string old = (parent_of(output.directory) / fmt::format(".{}.old-{}", name_of(output.directory), getpid())).string();
      const bool replace = fs::exists(output.directory, error);
      if (replace) fs::rename(output.directory, old, error);
      if (!error) fs::rename(staging, output.directory, error);
      if (error) throw Error("cannot write output directory '" + output.directory + "': " + error.message());
      if (replace) fs::remove_all(old, error);
    });
  } catch (...) {
    if (cluster.rank() == 0) {
      std::error_code ignored;
      fs::remove_all(staging, ignored);
    }
    throw;
  }
  return stats;
}

}  // namespace hpcdb
