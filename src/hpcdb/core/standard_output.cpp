#include "hpcdb/core/standard_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

constexpr std::size_t kBufferBytes = std::size_t{1} << 20;

[[noreturn]] void fail(const std::string& what, int error_number) {
  std::clearerr(stdout);
  std::cout.clear();
  throw Error("cannot write " + what + " to standard output: " +
              (error_number != 0 ? std::strerror(error_number) : "an earlier write failed"));
}

void flush(const std::string& what) {
  // std::cout writes through stdout's buffer (synchronised with stdio), so
  // this one flush is where its writes fail too.
  errno = 0;
  if (std::fflush(stdout) != 0) fail(what, errno);
  // A write that failed inside an earlier call (a summary larger than the
  // buffer) left only the flag; its reason is gone.
  if (std::ferror(stdout) || std::cout.fail()) fail(what, 0);
}

}  // namespace

void buffer_standard_output() {
  if (::isatty(STDOUT_FILENO)) return;
  // Lives as long as the stream; stdio never frees a buffer it was given.
  static char buffer[kBufferBytes];
  std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
}

void flush_standard_output() { flush("results"); }

void write_standard_output(std::string_view text, const std::string& what) {
  flush(what);
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) fail(what, errno);
  flush(what);
}

void write_error_line(std::string_view line) {
  std::string text(line);
  text += '\n';
  std::fflush(stderr);
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t written = ::write(STDERR_FILENO, data, left);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    data += written;
    left -= static_cast<std::size_t>(written);
  }
}

}  // namespace hpcdb
