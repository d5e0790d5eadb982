#pragma once
// Parsing of human-written quantities: "32M" (10^6), "16Mi" (2^20), "64KiB".
#include <cstdint>
#include <string>

namespace hpcdb {

// A count with an optional suffix K, M, G, T (powers of ten) or Ki, Mi, Gi, Ti
// (powers of two). Throws UsageError naming `what` on anything else.
std::uint64_t parse_count(const std::string& text, const std::string& what);

// Like parse_count, but also accepts a trailing "B" ("64KiB", "1MB").
std::uint64_t parse_bytes(const std::string& text, const std::string& what);

// "1.5 GiB", "12.0 MiB", "512 B".
std::string format_bytes(double bytes);

// "67,108,864".
std::string format_grouped(std::uint64_t value);

}  // namespace hpcdb
