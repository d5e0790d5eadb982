#include "hpcdb/core/output_path.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <system_error>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {
namespace {

namespace fs = std::filesystem;

fs::path directory_of(const std::string& path) {
  fs::path directory = fs::path(path).parent_path();
  return directory.empty() ? fs::path(".") : directory;
}

}  // namespace

void check_output_path(const std::string& path, const std::string& what, StandardOutput standard_output) {
  if (path.empty()) return;
  auto refuse = [&](const std::string& reason) {
    throw UsageError("cannot write " + what + " '" + path + "': " + reason);
  };
  if (path == "-") {
    if (standard_output == StandardOutput::refused) {
      refuse("standard output cannot take a file that all ranks write; give a file name");
    }
    return;
  }
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (fs::exists(status)) {
    if (fs::is_directory(status)) refuse("it is a directory");
    if (access(path.c_str(), W_OK) != 0) refuse("permission denied");
    if (!fs::is_regular_file(status)) return;  // a device or FIFO is written in place
  }
  // A regular file is written beside its path, then renamed over it.
  const fs::path directory = directory_of(fs::exists(status) ? fs::canonical(path, error).string() : path);
  if (!fs::is_directory(directory, error)) refuse("directory '" + directory.string() + "' does not exist");
  if (access(directory.c_str(), W_OK | X_OK) != 0) refuse("directory '" + directory.string() + "' is not writable");
}

void check_output_space(const std::vector<PlannedOutput>& outputs, const std::string& what) {
  struct Place {
    std::string directory;
    dev_t device = 0;
    bool counts = false;  // a regular or new file
  };
  std::vector<Place> places;
  for (const PlannedOutput& output : outputs) {
    Place place;
    struct stat status {};
    const bool exists = ::stat(output.path.c_str(), &status) == 0;
    std::error_code error;
    place.directory = directory_of(exists ? fs::canonical(output.path, error).string() : output.path).string();
    struct stat directory {};
    place.counts = (!exists || S_ISREG(status.st_mode)) && ::stat(place.directory.c_str(), &directory) == 0;
    place.device = directory.st_dev;
    places.push_back(place);
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (!places[i].counts) continue;
    std::uint64_t needed = 0;
    std::string others;
    for (std::size_t j = 0; j < outputs.size(); ++j) {
      if (!places[j].counts || places[j].device != places[i].device) continue;
      needed += outputs[j].bytes;
      if (j != i) others += " and '" + outputs[j].path + "'";
    }
    const std::optional<std::uint64_t> free = free_bytes_in(places[i].directory);
    if (free && needed > *free) {
      throw Error("cannot write " + what + " '" + outputs[i].path + "': " +
                  (others.empty() ? "it" : "together with " + others.substr(5) + " it") + " needs " +
                  format_bytes(static_cast<double>(needed)) +
                  ", but the file system of '" + places[i].directory + "' has only " +
                  format_bytes(static_cast<double>(*free)) + " free");
    }
  }
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  const bool a_exists = ::stat(a.c_str(), &sa) == 0;
  const bool b_exists = ::stat(b.c_str(), &sb) == 0;
  if (a_exists && b_exists) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (a_exists != b_exists) return false;
  std::error_code error;
  return fs::weakly_canonical(fs::absolute(a), error) == fs::weakly_canonical(fs::absolute(b), error);
}

void refuse_same_files(const NamedPaths& outputs, const NamedPaths& inputs) {
  auto check = [](const std::pair<std::string, std::string>& output, const std::pair<std::string, std::string>& other) {
    const auto& [output_option, output_path] = output;
    const auto& [other_option, other_path] = other;
    if (output_path.empty() || other_path.empty() || output_path == "-" || other_path == "-") return;
    struct stat status {};
    if (::stat(output_path.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) return;  // /dev/null twice is fine
    if (!same_file(output_path, other_path)) return;
    throw UsageError(output_option + " and " + other_option + " name the same file ('" + output_path + "'" +
                     (output_path == other_path ? "" : " and '" + other_path + "'") + "); give each its own file");
  };
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (std::size_t j = i + 1; j < outputs.size(); ++j) check(outputs[i], outputs[j]);
    for (const auto& input : inputs) check(outputs[i], input);
  }
}

void prepare_output_directory(const std::string& path, const std::string& what) {
  auto refuse = [&](const std::string& reason) {
    throw UsageError("cannot write " + what + " '" + path + "': " + reason);
  };
  std::error_code error;
  if (fs::exists(path, error) && !fs::is_directory(path, error)) refuse("it is not a directory");
  fs::create_directories(path, error);
  if (error) refuse(error.message());
  if (access(path.c_str(), W_OK | X_OK) != 0) refuse("permission denied");
}

}  // namespace hpcdb
