#include "hpcdb/core/cpu_info.hpp"

#include <unistd.h>

#include <fstream>
#include <string>

namespace hpcdb {
namespace {

std::size_t parse_cache_size(const std::string& text) {
  std::size_t value = 0;
  std::size_t i = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') value = value * 10 + static_cast<std::size_t>(text[i++] - '0');
  if (i < text.size() && (text[i] == 'K' || text[i] == 'k')) value *= 1024;
  else if (i < text.size() && text[i] == 'M') value *= 1024 * 1024;
  return value;
}

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

CpuInfo detect_cpu() {
  CpuInfo info;
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    const std::string level = read_line(dir + "level");
    if (level.empty()) break;
    const std::string type = read_line(dir + "type");
    const std::size_t size = parse_cache_size(read_line(dir + "size"));
    if (size == 0) continue;
    if (level == "1" && type == "Data") info.l1d_bytes = size;
    else if (level == "2") info.l2_bytes = size;
    else if (level == "3") info.l3_bytes = size;
  }
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  info.cores = online > 0 ? static_cast<unsigned>(online) : 1u;
  info.avx2 = __builtin_cpu_supports("avx2");
  return info;
}

}  // namespace hpcdb
