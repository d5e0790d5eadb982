// Counts and sizes as users type them ("16M", "64KiB", "1e3"): any text is
// parsed or refused with UsageError; a count printed back parses to itself.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/units.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const bool bytes : {false, true}) {
    try {
      const std::uint64_t value = bytes ? hpcdb::parse_bytes(text, "--size") : hpcdb::parse_count(text, "--count");
      const std::string printed = std::to_string(value);
      if ((bytes ? hpcdb::parse_bytes(printed, "--size") : hpcdb::parse_count(printed, "--count")) != value) {
        std::abort();
      }
    } catch (const hpcdb::UsageError&) {
    }
  }
  (void)hpcdb::format_bytes(static_cast<double>(size) * 1e15);
  return 0;
}
