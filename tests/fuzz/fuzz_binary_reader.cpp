// The binary relation reader on any bytes: it refuses (UsageError) what is
// not 16-byte records or looks like CSV text, and otherwise returns exactly
// the records of the file, whatever the number of parts.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz/fuzz_input_file.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/data/relation_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static hpcdb::fuzz::InputFile file("input.bin");
  if (size == 0) return 0;
  const unsigned parts = 1 + data[0] % 9;
  const std::string& path = file.write(data + 1, size - 1);
  std::vector<hpcdb::Tuple> all;
  try {
    for (unsigned part = 0; part < parts; ++part) {
      const hpcdb::RelationPart piece = hpcdb::read_relation_part(path, part, parts);
      if (piece.skipped_header) std::abort();
      all.insert(all.end(), piece.tuples.begin(), piece.tuples.end());
    }
  } catch (const hpcdb::UsageError&) {
    return 0;
  }
  const std::size_t bytes = size - 1;
  if (bytes % sizeof(hpcdb::Tuple) != 0 || all.size() * sizeof(hpcdb::Tuple) != bytes) std::abort();
  if (bytes > 0 && std::memcmp(all.data(), data + 1, bytes) != 0) std::abort();
  return 0;
}
