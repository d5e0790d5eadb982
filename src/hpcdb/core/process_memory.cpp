#include "hpcdb/core/process_memory.hpp"

#include <fstream>
#include <sstream>
#include <string>

namespace hpcdb {
namespace {

// The value in kB of the line "name: N kB" of a /proc file, in bytes.
bool parse_kib_line(const std::string& line, const std::string& name, std::uint64_t& bytes) {
  if (line.compare(0, name.size(), name) != 0 || line.size() <= name.size() || line[name.size()] != ':') return false;
  std::istringstream in(line.substr(name.size() + 1));
  std::uint64_t kib = 0;
  if (in >> kib) bytes = kib * 1024;
  return true;
}

}  // namespace

ProcessMemory read_process_memory() {
  ProcessMemory memory;
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    parse_kib_line(line, "VmRSS", memory.resident) || parse_kib_line(line, "VmHWM", memory.peak_resident) ||
        parse_kib_line(line, "RssAnon", memory.anonymous) || parse_kib_line(line, "RssFile", memory.file) ||
        parse_kib_line(line, "RssShmem", memory.shared);
  }
  return memory;
}

std::uint64_t proportional_shared_memory() {
  std::ifstream rollup("/proc/self/smaps_rollup");
  std::string line;
  std::uint64_t bytes = 0;
  while (std::getline(rollup, line)) {
    if (parse_kib_line(line, "Pss_Shmem", bytes)) break;
  }
  return bytes;
}

bool reset_peak_resident_memory() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";  // 5: reset the peak resident set size (proc(5))
  clear.flush();
  return static_cast<bool>(clear);
}

MemoryPeak PeakMemoryMeter::stop() const {
  const ProcessMemory now = read_process_memory();
  MemoryPeak peak;
  const std::uint64_t mapped = now.file + now.shared;
  peak.private_bytes = now.peak_resident > mapped ? now.peak_resident - mapped : 0;
  if (peak.private_bytes < now.anonymous) peak.private_bytes = now.anonymous;
  peak.shared_bytes = proportional_shared_memory();
  peak.since_start = since_start_;
  return peak;
}

}  // namespace hpcdb
