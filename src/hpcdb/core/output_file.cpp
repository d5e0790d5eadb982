#include "hpcdb/core/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/standard_output.hpp"

namespace hpcdb {
namespace {

namespace fs = std::filesystem;

// Single write system calls stay below Linux's 2 GiB limit.
constexpr std::size_t kMaxIoBytes = std::size_t{1} << 30;
// Room for the temporary name's suffix within a 255-byte file name.
constexpr std::size_t kMaxBaseChars = 200;

// The file a path finally names: a symbolic link is replaced by nothing,
// the file it points to is.
std::string replaced_file(const std::string& path) {
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return path;
  std::error_code error;
  const fs::path resolved = fs::canonical(path, error);
  return error ? path : resolved.string();
}

// A new, empty file next to `target` whose name no other writer uses; with
// the mode of the file it replaces, if there is one.
std::string create_temporary_beside(const std::string& target, const std::string& what, const std::string& shown) {
  const fs::path t(target);
  const fs::path directory = t.has_parent_path() ? t.parent_path() : fs::path(".");
  const std::string base = t.filename().string().substr(0, kMaxBaseChars);
  struct stat old {};
  const bool replaces = ::stat(target.c_str(), &old) == 0 && S_ISREG(old.st_mode);
  const auto stamp = static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
  for (unsigned attempt = 0;; ++attempt) {
    const std::string name = (directory / ("." + base + ".partial-" + std::to_string(::getpid()) + "-" +
                                           std::to_string((stamp + attempt) % 1000000)))
                                 .string();
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
      if (errno == EEXIST && attempt < 100) continue;
      throw Error(output_error(what, shown, errno));
    }
    if (replaces) (void)::fchmod(fd, old.st_mode & 07777);
    ::close(fd);
    return name;
  }
}

}  // namespace

std::string output_error(const std::string& what, const std::string& path, int error_number) {
  return "cannot write " + what + " '" + path + "': " + std::strerror(error_number);
}

FileSink::FileSink(const std::string& open_path, const std::string& what, const std::string& shown_path)
    : what_(what), shown_path_(shown_path) {
  fd_ = ::open(open_path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd_ < 0) fail(errno);
  struct stat status {};
  regular_ = ::fstat(fd_, &status) == 0 && S_ISREG(status.st_mode);
}

FileSink::~FileSink() {
  if (fd_ >= 0) ::close(fd_);
}

void FileSink::fail(int error_number) const { throw Error(output_error(what_, shown_path_, error_number)); }

void FileSink::write(const void* data, std::size_t bytes) {
  const auto* in = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t put = ::write(fd_, in, std::min(bytes, kMaxIoBytes));
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) fail(put < 0 ? errno : EIO);
    in += put;
    bytes -= static_cast<std::size_t>(put);
  }
}

void FileSink::write_at(const void* data, std::size_t bytes, std::uint64_t offset) {
  const auto* in = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t put = ::pwrite(fd_, in, std::min(bytes, kMaxIoBytes), static_cast<off_t>(offset));
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) fail(put < 0 ? errno : EIO);
    in += put;
    bytes -= static_cast<std::size_t>(put);
    offset += static_cast<std::uint64_t>(put);
  }
}

void FileSink::close() {
  const int fd = fd_;
  fd_ = -1;
  if (regular_ && ::fdatasync(fd) != 0 && errno != EINVAL) {
    const int error_number = errno;
    ::close(fd);
    fail(error_number);
  }
  if (::close(fd) != 0 && errno != EINTR) fail(errno);
}

StagedOutput::StagedOutput(const std::string& path, const std::string& what)
    : path_(path), target_(replaced_file(path)), what_(what) {
  struct stat status {};
  const bool device_or_fifo = ::stat(target_.c_str(), &status) == 0 && !S_ISREG(status.st_mode);
  staging_ = device_or_fifo ? target_ : create_temporary_beside(target_, what_, path_);
  if (!in_place()) removed_on_interruption_ = TemporaryFileGuard(staging_);
}

StagedOutput::~StagedOutput() {
  if (!committed_ && !in_place()) ::unlink(staging_.c_str());
}

void StagedOutput::commit() {
  if (!in_place()) {
    if (::rename(staging_.c_str(), target_.c_str()) != 0) throw Error(output_error(what_, path_, errno));
    removed_on_interruption_.release();
    // The rename itself reaches storage with the directory.
    const fs::path t(target_);
    const std::string directory = t.has_parent_path() ? t.parent_path().string() : ".";
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
      const bool synced = ::fsync(fd) == 0 || errno == EINVAL;
      const int error_number = errno;
      ::close(fd);
      committed_ = true;
      if (!synced) throw Error(output_error(what_, path_, error_number));
    }
  }
  committed_ = true;
}

void write_output_file(const std::string& path, const std::string& what, std::string_view content) {
  if (path == "-") {
    write_standard_output(content, what);
    return;
  }
  StagedOutput output(path, what);
  FileSink sink(output.staging_path(), what, path);
  sink.write(content.data(), content.size());
  sink.close();
  output.commit();
}

}  // namespace hpcdb
