#include "hpcdb/data/shared_file_writer.hpp"

#include <mpi.h>

#include <algorithm>
#include <charconv>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/data/relation_file.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {
namespace {

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

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

void write_shared_file(const Cluster& cluster, const std::string& path, const char* data, std::uint64_t bytes) {
  const std::uint64_t offset = exclusive_scan_sum(std::vector<std::uint64_t>{bytes}, cluster.world())[0];
  MPI_File file = MPI_FILE_NULL;
  int rc = MPI_File_open(cluster.world(), path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &file);
  run_collectively(cluster.world(), [&] {
    if (rc != MPI_SUCCESS) throw UsageError("cannot write file '" + path + "': " + mpi_error_text(rc));
  });
  rc = MPI_File_set_size(file, 0);
  // write_at_all is collective: every rank makes the same number of calls.
  constexpr std::uint64_t kChunk = 1u << 30;
  const std::uint64_t calls = allreduce((bytes + kChunk - 1) / kChunk, MPI_MAX, cluster.world());
  std::uint64_t written = 0;
  for (std::uint64_t c = 0; c < calls; ++c) {
    const std::uint64_t n = std::min(kChunk, bytes - written);
    const int call_rc = MPI_File_write_at_all(file, static_cast<MPI_Offset>(offset + written), data + written,
                                              static_cast<int>(n), MPI_BYTE, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) rc = call_rc;
    written += n;
  }
  MPI_File_close(&file);
  run_collectively(cluster.world(), [&] {
    if (rc != MPI_SUCCESS) throw Error("writing file '" + path + "' failed: " + mpi_error_text(rc));
  });
}

void write_two_column_file(const Cluster& cluster, const std::string& path, const std::uint64_t* values,
                           std::uint64_t rows, const std::string& csv_header) {
  if (format_for_path(path) == FileFormat::csv) {
    const std::string text = csv_lines(values, rows, cluster.rank() == 0 ? csv_header : "");
    write_shared_file(cluster, path, text.data(), text.size());
  } else {
    write_shared_file(cluster, path, reinterpret_cast<const char*>(values), rows * 2 * sizeof(std::uint64_t));
  }
}

}  // namespace hpcdb
