#pragma once
// Units the commands' reports print rates in.
#include <fmt/format.h>

#include <string>

namespace hpcdb {

// Bytes per second as MB/s (10^6 bytes), one decimal.
inline std::string megabytes(double bytes_per_second) { return fmt::format("{:.1f}", bytes_per_second / 1e6); }

}  // namespace hpcdb
