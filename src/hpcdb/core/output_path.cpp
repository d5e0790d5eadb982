#include "hpcdb/core/output_path.hpp"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

void check_output_path(const std::string& path, const std::string& what) {
  if (path.empty() || path == "-") return;
  namespace fs = std::filesystem;
  auto refuse = [&](const std::string& reason) {
    throw UsageError("cannot write " + what + " '" + path + "': " + reason);
  };
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (fs::exists(status)) {
    if (fs::is_directory(status)) refuse("it is a directory");
    if (access(path.c_str(), W_OK) != 0) refuse("permission denied");
    return;
  }
  fs::path directory = fs::path(path).parent_path();
  if (directory.empty()) directory = ".";
  if (!fs::is_directory(directory, error)) refuse("directory '" + directory.string() + "' does not exist");
  if (access(directory.c_str(), W_OK | X_OK) != 0) refuse("directory '" + directory.string() + "' is not writable");
}

}  // namespace hpcdb
