#pragma once
// Outputs appear complete or not at all. A file is written under a temporary
// name in its own directory and renamed over its path only once every byte
// is written, flushed to storage and closed without error; until then a
// reader sees the old file, if any, and a failure removes the temporary one.
// A path that names an existing device or FIFO (/dev/null, /dev/stdout) is
// written in place. Every failure is an Error ("cannot write <what> '<path>':
// <the system's reason>").
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "hpcdb/core/interruption.hpp"

namespace hpcdb {

// "cannot write <what> '<path>': <strerror(error_number)>".
std::string output_error(const std::string& what, const std::string& path, int error_number);

// One descriptor open for writing; every call is checked.
class FileSink {
 public:
  // Opens `open_path` (which must exist) for writing without truncating it;
  // messages name the output as `what` '<shown_path>'.
  FileSink(const std::string& open_path, const std::string& what, const std::string& shown_path);
  ~FileSink();  // closes without checks if close() was not reached (the output failed anyway)
  FileSink(const FileSink&) = delete;
  FileSink& operator=(const FileSink&) = delete;

  void write(const void* data, std::size_t bytes);  // at the current position
  void write_at(const void* data, std::size_t bytes, std::uint64_t offset);
  // Flushes a regular file to storage (where a network file system reports
  // a full disk) and closes the descriptor.
  void close();

 private:
  [[noreturn]] void fail(int error_number) const;

  std::string what_;
  std::string shown_path_;
  int fd_ = -1;
  bool regular_ = false;
};

// The file an output is written to until it is complete.
class StagedOutput {
 public:
  // Creates an empty temporary file next to `path` (next to the file a
  // symbolic link names), or chooses to write in place when `path` is an
  // existing device or FIFO.
  StagedOutput(const std::string& path, const std::string& what);
  ~StagedOutput();  // removes the temporary file unless committed
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;

  const std::string& staging_path() const { return staging_; }
  bool in_place() const { return staging_ == target_; }
  // Renames the complete temporary file over the path.
  void commit();

 private:
  std::string path_;    // as the user gave it, for messages
  std::string target_;  // the file that is replaced (a symbolic link's target)
  std::string staging_;
  std::string what_;
  bool committed_ = false;
  TemporaryFileGuard removed_on_interruption_;
};

// Writes `content` as the whole output at `path`, or to standard output for
// "-".
void write_output_file(const std::string& path, const std::string& what, std::string_view content);

}  // namespace hpcdb
