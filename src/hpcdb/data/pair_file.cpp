#include "hpcdb/data/pair_file.hpp"

#include <fmt/format.h>

#include <cstring>

#include "hpcdb/data/relation_file.hpp"
#include "hpcdb/data/shared_file_writer.hpp"

namespace hpcdb {

static_assert(sizeof(MatchPair) == 2 * sizeof(std::uint64_t));

void write_pair_file(const Cluster& cluster, const std::string& path, const std::vector<MatchPair>& pairs) {
  write_two_column_file(cluster, path, "pair file", reinterpret_cast<const std::uint64_t*>(pairs.data()), pairs.size(),
                        "rid_r,rid_s");
}

}  // namespace hpcdb

namespace hpcdb {

void write_row_file(const Cluster& cluster, const std::string& path, const std::vector<std::byte>& rows,
                    std::size_t payload_width) {
  SharedFileWriter file(cluster, path, "row file");
  if (format_for_path(path) != FileFormat::csv) {
    file.write(reinterpret_cast<const char*>(rows.data()), rows.size());
    file.commit();
    return;
  }
  const std::size_t row_bytes = 4 * sizeof(std::uint64_t) + 2 * payload_width;
  std::string text;
  if (cluster.rank() == 0) text = "rid_r,rid_s,key_r,key_s,payload_r,payload_s\n";
  static constexpr char kHex[] = "0123456789abcdef";
  auto hex = [&](const std::byte* bytes) {
    for (std::size_t i = 0; i < payload_width; ++i) {
      const auto b = static_cast<unsigned>(bytes[i]);
      text += kHex[b >> 4];
      text += kHex[b & 15];
    }
  };
  for (std::size_t at = 0; at + row_bytes <= rows.size(); at += row_bytes) {
    std::uint64_t values[4];
    std::memcpy(values, rows.data() + at, sizeof values);
    text += fmt::format("{},{},{},{},", values[0], values[1], values[2], values[3]);
    hex(rows.data() + at + 32);
    text += ',';
    hex(rows.data() + at + 32 + payload_width);
    text += '\n';
  }
  file.write(text.data(), text.size());
  file.commit();
}

}  // namespace hpcdb
