#include "hpcdb/core/units.hpp"

#include <cctype>
#include <cstdio>
#include <limits>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

std::uint64_t parse_with_suffix(std::string text, const std::string& what, bool allow_byte_suffix) {
  const std::string original = text;
  auto fail = [&]() -> std::uint64_t {
    throw UsageError(what + ": '" + original +
                     "' is not a count; use digits with an optional suffix K, M, G, T "
                     "(powers of ten) or Ki, Mi, Gi, Ti (powers of two)");
  };
  if (allow_byte_suffix && !text.empty() && (text.back() == 'B' || text.back() == 'b')) text.pop_back();
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0) return fail();
  const std::string suffix = text.substr(digits);
  std::uint64_t multiplier = 1;
  if (suffix.empty()) multiplier = 1;
  else if (suffix == "K" || suffix == "k") multiplier = 1000ULL;
  else if (suffix == "M") multiplier = 1000000ULL;
  else if (suffix == "G") multiplier = 1000000000ULL;
  else if (suffix == "T") multiplier = 1000000000000ULL;
  else if (suffix == "Ki") multiplier = 1ULL << 10;
  else if (suffix == "Mi") multiplier = 1ULL << 20;
  else if (suffix == "Gi") multiplier = 1ULL << 30;
  else if (suffix == "Ti") multiplier = 1ULL << 40;
  else return fail();
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    const std::uint64_t d = static_cast<std::uint64_t>(text[i] - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - d) / 10) {
      throw UsageError(what + ": '" + original + "' is too large");
    }
    value = value * 10 + d;
  }
  if (value != 0 && multiplier > std::numeric_limits<std::uint64_t>::max() / value) {
    throw UsageError(what + ": '" + original + "' is too large");
  }
  return value * multiplier;
}

}  // namespace

std::uint64_t parse_count(const std::string& text, const std::string& what) {
  return parse_with_suffix(text, what, false);
}

std::uint64_t parse_bytes(const std::string& text, const std::string& what) {
  return parse_with_suffix(text, what, true);
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024.0 && unit < 4) {
    bytes /= 1024.0;
    ++unit;
  }
  char buffer[64];
  if (unit == 0) std::snprintf(buffer, sizeof buffer, "%.0f B", bytes);
  else std::snprintf(buffer, sizeof buffer, "%.1f %s", bytes, units[unit]);
  return buffer;
}

std::string format_grouped(std::uint64_t value) {
  const std::string digits = std::to_string(value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace hpcdb
