// The CSV relation reader on any bytes: it returns tuples or throws
// UsageError, never crashes or reads out of bounds; and however the file is
// cut into parts (as ranks read it), the parts together hold the same tuples
// as one part, and at most one part reports a skipped header.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "fuzz/fuzz_input_file.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/data/relation_file.hpp"

namespace {

std::vector<hpcdb::Tuple> read_in_parts(const std::string& path, unsigned parts, hpcdb::CsvHeader header,
                                        int& headers_seen) {
  std::vector<hpcdb::Tuple> all;
  for (unsigned part = 0; part < parts; ++part) {
    const hpcdb::RelationPart piece = hpcdb::read_relation_part(path, part, parts, header);
    all.insert(all.end(), piece.tuples.begin(), piece.tuples.end());
    if (piece.skipped_header) ++headers_seen;
  }
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static hpcdb::fuzz::InputFile file("input.csv");
  if (size == 0) return 0;
  // The first byte chooses the header mode and the number of parts.
  const auto header = static_cast<hpcdb::CsvHeader>(data[0] % 3);
  const unsigned parts = 2 + (data[0] >> 2) % 15;
  const std::string& path = file.write(data + 1, size - 1);
  int whole_headers = 0;
  std::vector<hpcdb::Tuple> whole;
  try {
    whole = read_in_parts(path, 1, header, whole_headers);
  } catch (const hpcdb::UsageError&) {
    return 0;  // refused: then some part must refuse too, which the split read need not show
  }
  int split_headers = 0;
  const std::vector<hpcdb::Tuple> split = read_in_parts(path, parts, header, split_headers);
  if (split != whole || split_headers != whole_headers || whole_headers > 1) std::abort();
  return 0;
}
