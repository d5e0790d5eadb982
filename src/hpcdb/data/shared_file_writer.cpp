#include "hpcdb/data/shared_file_writer.hpp"

#include <mpi.h>

#include <charconv>
#include <vector>

#include "hpcdb/core/output_file.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/data/relation_file.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {
namespace {

std::string csv_lines(const std::uint64_t* values, std::uint64_t rows, const std::string& header) {
  std::string text;
  text.reserve(rows * 24 + header.size() + 1);
  if (!header.empty()) text += header + "\n";
  char line[48];
  for (std::uint64_t i = 0; i < rows; ++i) {
    char* end = std::to_chars(line, line + 20, values[2 * i]).ptr;
    *end++ = ',';
    end = std::to_chars(end, end + 20, values[2 * i + 1]).ptr;
    *end++ = '\n';
    text.append(line, end);
  }
  return text;
}

}  // namespace

SharedFileWriter::SharedFileWriter(const Cluster& cluster, const std::string& path, const std::string& what)
    : cluster_(cluster), path_(path), what_(what) {
  run_collectively(cluster.world(), [&] {
    if (cluster.rank() != 0) return;
    output_ = std::make_unique<StagedOutput>(path, what);
    staging_path_ = output_->staging_path();
    in_place_ = output_->in_place();
  });
  // Every rank learns where to write.
  unsigned long long header[2] = {staging_path_.size(), in_place_ ? 1ull : 0ull};
  MPI_Bcast(header, 2, MPI_UNSIGNED_LONG_LONG, 0, cluster.world());
  staging_path_.resize(static_cast<std::size_t>(header[0]));
  in_place_ = header[1] != 0;
  MPI_Bcast(staging_path_.data(), static_cast<int>(header[0]), MPI_CHAR, 0, cluster.world());
}

SharedFileWriter::~SharedFileWriter() = default;

void SharedFileWriter::write(const char* data, std::uint64_t bytes) {
  const MPI_Comm world = cluster_.world();
  const std::uint64_t offset = written_ + exclusive_scan_sum(std::vector<std::uint64_t>{bytes}, world)[0];
  const std::uint64_t total = allreduce(bytes, MPI_SUM, world);
  written_ += total;
  run_collectively(world, [&] {
    if (cluster_.rank() == 0) check_output_space({{path_, total}}, what_);
  });
  if (in_place_) {
    write_in_rank_order(data, bytes);
    return;
  }
  // POSIX writes report the system's reason for a failure, as MPI-IO does not.
  run_collectively(world, [&] {
    FileSink sink(staging_path_, what_, path_);
    sink.write_at(data, bytes, offset);
    sink.close();
  });
}

// A device or FIFO has no offsets: the ranks write one after the other.
void SharedFileWriter::write_in_rank_order(const char* data, std::uint64_t bytes) {
  std::exception_ptr failure;
  for (int turn = 0; turn < cluster_.size(); ++turn) {
    if (turn == cluster_.rank()) {
      try {
        FileSink sink(staging_path_, what_, path_);
        sink.write(data, bytes);
        sink.close();
      } catch (...) {
        failure = std::current_exception();
      }
    }
    MPI_Barrier(cluster_.world());
  }
  agree_on_failure(cluster_.world(), failure);
}

void SharedFileWriter::write_two_columns(const std::uint64_t* values, std::uint64_t rows, const std::string& csv_header) {
  if (format_for_path(path_) == FileFormat::csv) {
    const std::string text = csv_lines(values, rows, cluster_.rank() == 0 ? csv_header : "");
    write(text.data(), text.size());
  } else {
    write(reinterpret_cast<const char*>(values), rows * 2 * sizeof(std::uint64_t));
  }
}

void SharedFileWriter::commit() {
  run_collectively(cluster_.world(), [&] {
    if (output_) output_->commit();
  });
}

void write_two_column_file(const Cluster& cluster, const std::string& path, const std::string& what,
                           const std::uint64_t* values, std::uint64_t rows, const std::string& csv_header) {
  SharedFileWriter writer(cluster, path, what);
  writer.write_two_columns(values, rows, csv_header);
  writer.commit();
}

}  // namespace hpcdb
