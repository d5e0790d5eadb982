#pragma once
// Large, page-aligned, optionally pre-faulted memory for the hot path.
// Allocated with mmap and advised to use transparent huge pages, so that the
// first write in a timed phase does not pay for page faults and TLB misses.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hpcdb {

enum class Prefault { no, yes };

// Untyped owning region of memory.
class MemoryRegion {
 public:
  MemoryRegion() = default;
  MemoryRegion(std::size_t bytes, Prefault prefault);
  // Memory that `keeper` owns (for example a node-shared segment); the region
  // keeps the keeper alive and never unmaps the memory itself.
  MemoryRegion(void* data, std::size_t bytes, std::shared_ptr<const void> keeper)
      : data_(data), bytes_(bytes), keeper_(std::move(keeper)) {}
  ~MemoryRegion();
  MemoryRegion(MemoryRegion&& other) noexcept { swap(other); }
  MemoryRegion& operator=(MemoryRegion&& other) noexcept {
    MemoryRegion tmp(std::move(other));
    swap(tmp);
    return *this;
  }
  MemoryRegion(const MemoryRegion&) = delete;
  MemoryRegion& operator=(const MemoryRegion&) = delete;

  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void swap(MemoryRegion& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
    std::swap(mapped_, other.mapped_);
    std::swap(keeper_, other.keeper_);
  }
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t mapped_ = 0;  // 0: not mapped by this region
  std::shared_ptr<const void> keeper_;
};

// A fixed-capacity array of trivially copyable T on its own pages.
template <class T>
class AlignedArray {
 public:
  AlignedArray() = default;
  explicit AlignedArray(std::size_t capacity, Prefault prefault = Prefault::yes)
      : region_(capacity * sizeof(T), prefault), size_(capacity) {}
  // n items at `data`, memory that `keeper` owns.
  AlignedArray(T* data, std::size_t n, std::shared_ptr<const void> keeper)
      : region_(data, n * sizeof(T), std::move(keeper)), size_(n) {}

  T* data() const { return static_cast<T*>(region_.data()); }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return region_.bytes() / sizeof(T); }
  void resize(std::size_t n);  // only within capacity
  T& operator[](std::size_t i) const { return data()[i]; }
  T* begin() const { return data(); }
  T* end() const { return data() + size_; }

 private:
  MemoryRegion region_;
  std::size_t size_ = 0;
};

template <class T>
void AlignedArray<T>::resize(std::size_t n) {
  if (n > capacity()) {
    AlignedArray<T> bigger(n, Prefault::yes);
    for (std::size_t i = 0; i < size_; ++i) bigger.data()[i] = data()[i];
    *this = std::move(bigger);
  }
  size_ = n;
}

// Writes one byte per page so that the kernel backs the range with memory now.
void prefault(void* data, std::size_t bytes);
// Makes the whole pages inside [data, data + bytes) resident, zeroed where
// they are new, in one call (madvise's MADV_POPULATE_WRITE, Linux 5.14 and
// later; elsewhere the pages are faulted in as they are touched). Ranges
// under 64 KiB are left alone. Only for memory that will be written whole:
// populated pages are resident whether they are used or not. On the 2-core
// VM the project is measured on, first touching 1 GiB took 0.93-1.14 s page
// by page and 0.64-0.70 s populated first; pages already resident cost the
// call 0.05 s a GiB.
void populate_pages(void* data, std::size_t bytes);
// Whether this kernel populates pages (asked once).
bool populate_supported();

// v = n copies of `value`; when v has to grow, its new memory is populated
// (populate_pages) before it is filled.
template <class T>
void assign_populated(std::vector<T>& v, std::size_t n, const T& value) {
  if (v.capacity() < n) {
    v.clear();
    v.reserve(n);
    populate_pages(v.data(), n * sizeof(T));
  }
  v.assign(n, value);
}

// Maps the pages of memory another process allocated (reads one byte per page).
void touch_for_reading(const void* data, std::size_t bytes);

// Bytes of memory the kernel reports as available to new allocations.
std::uint64_t available_memory_bytes();

// Where MPI places node-shared memory on Linux (a tmpfs, often smaller than
// memory: 64 MiB in a default container).
inline constexpr const char* kSharedMemoryDirectory = "/dev/shm";

// Bytes an unprivileged process may still write to the file system holding
// `directory`, or nothing when the directory cannot be examined.
std::optional<std::uint64_t> free_bytes_in(const std::string& directory);

// Safety margins: allocations may use 90% of the memory available and 95%
// of the free node-shared memory, leaving the rest to the system and to MPI's
// own segments.
inline constexpr double kUsableMemoryShare = 0.90;
inline constexpr double kUsableSharedMemoryShare = 0.95;

// When `bytes` of node-shared memory would not fit in the usable share of
// the file system holding `directory`: what to tell the user, starting
// "needs about ..." and stating the margin. Nothing when they fit or the
// directory cannot be examined. `held`: bytes of the need already allocated
// there (they count as free for the comparison).
std::optional<std::string> shared_memory_shortfall(std::uint64_t bytes,
                                                   const std::string& directory = kSharedMemoryDirectory,
                                                   std::uint64_t held = 0);

// The same for memory: when `bytes` exceed the usable share of `available`.
std::optional<std::string> memory_shortfall(std::uint64_t bytes, std::uint64_t available = available_memory_bytes());

}  // namespace hpcdb
