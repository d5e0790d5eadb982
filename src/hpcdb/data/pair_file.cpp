#include "hpcdb/data/pair_file.hpp"

#include <mpi.h>

#include <algorithm>
#include <charconv>
#include <cstring>

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

std::string csv_text(const std::vector<MatchPair>& pairs, bool header) {
  std::string text;
  text.reserve(pairs.size() * 24 + 16);
  if (header) text += "rid_r,rid_s\n";
  char line[48];
  for (const MatchPair& p : pairs) {
    char* end = std::to_chars(line, line + 20, p.rid_r).ptr;
    *end++ = ',';
    end = std::to_chars(end, end + 20, p.rid_s).ptr;
    *end++ = '\n';
    text.append(line, end);
  }
  return text;
}

}  // namespace

void write_pair_file(const Cluster& cluster, const std::string& path, const std::vector<MatchPair>& pairs) {
  const bool csv = format_for_path(path) == FileFormat::csv;
  std::string text;
  const char* data = reinterpret_cast<const char*>(pairs.data());
  std::uint64_t bytes = pairs.size() * sizeof(MatchPair);
  if (csv) {
    text = csv_text(pairs, cluster.rank() == 0);
    data = text.data();
    bytes = text.size();
  }
  const std::uint64_t offset = exclusive_scan_sum(std::vector<std::uint64_t>{bytes}, cluster.world())[0];

  MPI_File file = MPI_FILE_NULL;
  int rc = MPI_File_open(cluster.world(), path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &file);
  run_collectively(cluster.world(), [&] {
    if (rc != MPI_SUCCESS) throw UsageError("cannot write output file '" + path + "': " + mpi_error_text(rc));
  });
  rc = MPI_File_set_size(file, 0);
  std::uint64_t written = 0;
  constexpr std::uint64_t kChunk = 1u << 30;
  // write_at_all is collective: every rank makes the same number of calls.
  const std::uint64_t my_calls = (bytes + kChunk - 1) / kChunk;
  const std::uint64_t calls = allreduce(my_calls, MPI_MAX, cluster.world());
  for (std::uint64_t c = 0; c < calls; ++c) {
    const std::uint64_t n = std::min(kChunk, bytes - written);
    const int call_rc = MPI_File_write_at_all(file, static_cast<MPI_Offset>(offset + written), data + written,
                                              static_cast<int>(n), MPI_BYTE, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) rc = call_rc;
    written += n;
  }
  MPI_File_close(&file);
  run_collectively(cluster.world(), [&] {
    if (rc != MPI_SUCCESS) throw Error("writing output file '" + path + "' failed: " + mpi_error_text(rc));
  });
}

}  // namespace hpcdb
