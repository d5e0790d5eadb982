#pragma once
// Small text inputs a user names (calibration files, lock traces): read
// whole, refused at once when they are not regular files. A FIFO's open()
// waits for a writer, so the file is opened non-blocking and checked before
// anything is read.
#include <string>

namespace hpcdb {

// The file's bytes. Throws UsageError naming `what` and `path` when the file
// cannot be opened, is a directory, FIFO, device or socket, or cannot be read.
std::string read_text_input(const std::string& path, const std::string& what);

// Why a file of this mode is not a regular file, in plain words.
std::string not_regular_file_reason(unsigned mode);

}  // namespace hpcdb
