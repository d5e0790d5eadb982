#pragma once
// Writes one file together: every rank contributes its bytes, placed after
// those of all lower ranks, each rank writing its own byte range (so it works
// on any file system every rank mounts). The file appears complete or not at
// all: it is written under a temporary name and renamed into place by
// commit(), once every rank's bytes are on storage (core/output_file.hpp);
// any rank's failure ends every rank with the same message and removes the
// temporary file. Two-column records — relations <key, rid> and result
// pairs <rid_r, rid_s> — are written as 16-byte little-endian binary, or as
// CSV when the path ends in ".csv".
#include <cstdint>
#include <memory>
#include <string>

#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

class StagedOutput;

class SharedFileWriter {
 public:
  // Collective. Prepares to replace `path`; messages name it as `what`.
  SharedFileWriter(const Cluster& cluster, const std::string& path, const std::string& what);
  ~SharedFileWriter();  // removes the temporary file unless committed
  SharedFileWriter(const SharedFileWriter&) = delete;
  SharedFileWriter& operator=(const SharedFileWriter&) = delete;

  // Collective: this rank's bytes, after those of the lower ranks (and after
  // everything earlier calls wrote, so a file can be written in rounds).
  void write(const char* data, std::uint64_t bytes);
  // Collective, once: `rows` records of two unsigned 64-bit values each;
  // with CSV, rank 0 writes `csv_header` first.
  void write_two_columns(const std::uint64_t* values, std::uint64_t rows, const std::string& csv_header);
  // Collective: renames the complete file into place.
  void commit();

 private:
  void write_in_rank_order(const char* data, std::uint64_t bytes);

  const Cluster& cluster_;
  std::string path_;
  std::string what_;
  std::unique_ptr<StagedOutput> output_;  // rank 0's
  std::string staging_path_;
  bool in_place_ = false;  // a device or FIFO, written by the ranks in turn
  std::uint64_t written_ = 0;  // bytes of all ranks so far
};

// Collective. Writes and commits a whole two-column file.
void write_two_column_file(const Cluster& cluster, const std::string& path, const std::string& what,
                           const std::uint64_t* values, std::uint64_t rows, const std::string& csv_header);

}  // namespace hpcdb
