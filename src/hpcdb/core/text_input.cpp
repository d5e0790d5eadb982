#include "hpcdb/core/text_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

namespace {

std::string not_regular_file_reason(mode_t mode) {
  if (S_ISDIR(mode)) return "it is a directory";
  if (S_ISFIFO(mode)) return "it is a FIFO (named pipe), not a regular file";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "it is a device, not a regular file";
  if (S_ISSOCK(mode)) return "it is a socket, not a regular file";
  return "it is not a regular file";
}

}  // namespace

RegularInput open_regular_input(const std::string& path, const std::string& what, const std::string& hint) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw UsageError("cannot open " + what + " '" + path + "': " + std::strerror(errno));
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    const int err = errno;
    ::close(fd);
    throw UsageError("cannot open " + what + " '" + path + "': " + std::strerror(err));
  }
  if (!S_ISREG(status.st_mode)) {
    ::close(fd);
    throw UsageError("cannot read " + what + " '" + path + "': " + not_regular_file_reason(status.st_mode) +
                     (hint.empty() ? "" : "; " + hint));
  }
  return {fd, static_cast<std::uint64_t>(status.st_size)};
}

std::string read_text_input(const std::string& path, const std::string& what) {
  const RegularInput input = open_regular_input(path, what);
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(input.fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int err = errno;
      ::close(input.fd);
      throw UsageError("cannot read " + what + " '" + path + "': " + std::strerror(err));
    }
    if (got == 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(input.fd);
  return text;
}

}  // namespace hpcdb
