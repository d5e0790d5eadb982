#pragma once
// Output files are written at the end of a run (results, calibrations,
// matching pairs); a path that cannot be written is refused before the run,
// not after minutes of work.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hpcdb {

enum class StandardOutput { allowed, refused };

// Throws UsageError ("cannot write <what> '<path>': <reason>") unless
// `path` names a regular file in a writable directory (it is replaced by a
// file written beside it), a new file in an existing, writable directory,
// or a writable device or FIFO. The empty path passes, and "-" (standard
// output) where `standard_output` allows it.
void check_output_path(const std::string& path, const std::string& what,
                       StandardOutput standard_output = StandardOutput::allowed);

struct PlannedOutput {
  std::string path;
  std::uint64_t bytes = 0;
};

// Throws Error ("cannot write <what> '<path>': it needs ..., but the file
// system of '<directory>' has only ... free") if the outputs that share a
// file system need more than it has free (devices and FIFOs always pass).
void check_output_space(const std::vector<PlannedOutput>& outputs, const std::string& what);

// Whether two paths name the same file: the same inode when both exist
// (through links, "..", symbolic links), else the same absolute path.
bool same_file(const std::string& a, const std::string& b);

// <option, path>
using NamedPaths = std::vector<std::pair<std::string, std::string>>;

// Throws UsageError if an output names the same file as another output or
// as an input (empty paths, "-" and devices pass).
void refuse_same_files(const NamedPaths& outputs, const NamedPaths& inputs);

// Makes `path` an existing, writable directory (creating it and its parents
// if missing); throws UsageError ("cannot write <what> '<path>': <reason>").
void prepare_output_directory(const std::string& path, const std::string& what);

}  // namespace hpcdb
