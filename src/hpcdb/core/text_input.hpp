#pragma once
// Input files a user names (relations, calibration files, lock traces) are
// opened non-blocking and checked before anything is read: a FIFO's open()
// would wait for a writer, and a directory or device read as data would be
// misread or hang.
#include <cstdint>
#include <string>

namespace hpcdb {

struct RegularInput {
  int fd = -1;  // read-only; the caller closes it
  std::uint64_t size = 0;
};

// Opens `path`, which must be a regular file. Throws UsageError naming `what`
// and `path` and the reason (the system's, or "it is a FIFO ...", with
// `hint` appended to the latter when not empty).
RegularInput open_regular_input(const std::string& path, const std::string& what, const std::string& hint = "");

// The whole file's bytes, with the checks and errors of open_regular_input.
std::string read_text_input(const std::string& path, const std::string& what);

}  // namespace hpcdb
