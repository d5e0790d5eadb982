#include "hpcdb/core/memory.hpp"

#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {

namespace {
constexpr std::size_t kHugePage = 2u << 20;
}

MemoryRegion::MemoryRegion(std::size_t bytes, Prefault prefault_mode) : bytes_(bytes) {
  if (bytes == 0) return;
  mapped_ = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    throw Error("cannot allocate " + format_bytes(static_cast<double>(bytes)) + " of memory: " +
                std::strerror(errno));
  }
  madvise(p, mapped_, MADV_HUGEPAGE);
  data_ = p;
  if (prefault_mode == Prefault::yes) prefault(data_, bytes_);
}

MemoryRegion::~MemoryRegion() {
  if (data_ != nullptr && mapped_ > 0) munmap(data_, mapped_);
}

void prefault(void* data, std::size_t bytes) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  auto* bytes_ptr = static_cast<volatile char*>(data);
  for (std::size_t i = 0; i < bytes; i += page) bytes_ptr[i] = 0;
  if (bytes > 0) bytes_ptr[bytes - 1] = 0;
}

namespace {
#ifdef MADV_POPULATE_WRITE
constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kPopulateWrite = 23;
#endif
}  // namespace

bool populate_supported() {
  static const bool supported = [] {
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    void* p = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    const bool works = madvise(p, page, kPopulateWrite) == 0;
    munmap(p, page);
    return works;
  }();
  return supported;
}

void populate_pages(void* data, std::size_t bytes) {
  constexpr std::size_t kLeastBytes = std::size_t{1} << 16;
  if (bytes < kLeastBytes || !populate_supported()) return;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t from = (begin + page - 1) / page * page, to = (begin + bytes) / page * page;
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, kPopulateWrite);
}

void touch_for_reading(const void* data, std::size_t bytes) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const auto* bytes_ptr = static_cast<const volatile char*>(data);
  for (std::size_t i = 0; i < bytes; i += page) (void)bytes_ptr[i];
}

std::uint64_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t value = 0;
  std::string unit;
  while (meminfo >> key >> value >> unit) {
    if (key == "MemAvailable:") return value * 1024;
  }
  return static_cast<std::uint64_t>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

std::optional<std::uint64_t> free_bytes_in(const std::string& directory) {
  struct statvfs info {};
  if (statvfs(directory.c_str(), &info) != 0) return std::nullopt;
  return static_cast<std::uint64_t>(info.f_bavail) * static_cast<std::uint64_t>(info.f_frsize);
}

std::optional<std::string> shared_memory_shortfall(std::uint64_t bytes, const std::string& directory,
                                                   std::uint64_t held) {
  std::optional<std::uint64_t> free = free_bytes_in(directory);
  if (!free) return std::nullopt;
  *free += held;
  const double usable = kUsableSharedMemoryShare * static_cast<double>(*free);
  if (static_cast<double>(bytes) <= usable) return std::nullopt;
  return fmt::format(
      "needs about {} of node-shared memory on this node, more than the {} it may use of the {} free in {} "
      "({:.0f}% of it, leaving the rest to MPI's own segments); enlarge it (mount -o remount,size=... {}, or docker "
      "run --shm-size=...)",
      format_bytes(static_cast<double>(bytes)), format_bytes(usable), format_bytes(static_cast<double>(*free)),
      directory, 100 * kUsableSharedMemoryShare, directory);
}

std::optional<std::string> memory_shortfall(std::uint64_t bytes, std::uint64_t available) {
  const double usable = kUsableMemoryShare * static_cast<double>(available);
  if (static_cast<double>(bytes) <= usable) return std::nullopt;
  return fmt::format("needs about {} of memory on this node, more than the {} it may use of the {} available "
                     "({:.0f}% of it, leaving the rest to the system)",
                     format_bytes(static_cast<double>(bytes)), format_bytes(usable),
                     format_bytes(static_cast<double>(available)), 100 * kUsableMemoryShare);
}

}  // namespace hpcdb
