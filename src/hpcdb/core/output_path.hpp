#pragma once
// Output files are written at the end of a run (results, calibrations,
// matching pairs); a path that cannot be written is refused before the run,
// not after minutes of work.
#include <string>

namespace hpcdb {

// Throws UsageError ("cannot write <what> '<path>': <reason>") unless
// `path` names a regular file that can be overwritten, or a new file in an
// existing, writable directory. Empty paths and "-" (standard output) pass.
void check_output_path(const std::string& path, const std::string& what);

}  // namespace hpcdb
