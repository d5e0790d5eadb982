#pragma once
// Software write-combining for radix partitioning.
//
// Every partition owns one cache-line-sized staging line. Items are appended
// to the line in cache; a full line is written to the partition's destination
// with non-temporal stores (one 64-byte write, no read-for-ownership), which
// keeps a large fan-out from thrashing the caches and the TLB.
//
// A destination is a "run" [begin, end) of item slots in memory: the exact
// range a histogram reserved (a local or shared-memory window), or a send
// buffer. A run may start anywhere: its first line then holds only the slots
// from the run's start up to the next cache-line boundary, and is written with
// ordinary stores, so that neighbouring bytes owned by other writers are never
// touched. push() reports when a run is exhausted, so the caller can hand the
// full buffer to the network and install the next one.
#include <emmintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

constexpr std::size_t kCacheLine = 64;

// The 64-bit word of an item that can hold a staging line's fill count.
inline std::uint64_t& counter_word(std::uint64_t& item) { return item; }
inline std::uint64_t& counter_word(Tuple& item) { return item.rid; }

template <class Stored>
class WriteCombiner {
 public:
  static constexpr std::uint32_t kPerLine = kCacheLine / sizeof(Stored);
  static_assert(kCacheLine % sizeof(Stored) == 0);

  explicit WriteCombiner(std::size_t partitions)
      : lines_(partitions, Prefault::yes), runs_(partitions) {}

  std::size_t partitions() const { return runs_.size(); }

  // Items of partition p go to [begin, end) from now on. Must be called
  // only when the partition's staging line is empty (at start, or after
  // push() returned true).
  void set_run(std::size_t p, Stored* begin, Stored* end) {
    const auto address = reinterpret_cast<std::uintptr_t>(begin);
    if (address % sizeof(Stored) != 0) throw Error("write-combining destination is misaligned");
    const std::uintptr_t line_address = address & ~static_cast<std::uintptr_t>(kCacheLine - 1);
    const auto start = static_cast<std::uint32_t>((address - line_address) / sizeof(Stored));
    runs_[p] = Run{reinterpret_cast<Stored*>(line_address), end, start};
    lines_[p].count() = start;
  }

  // The run of p now ends at `end`, later than before: the items that follow
  // go right after the earlier ones (also when push() has just reported the
  // run exhausted at its old end).
  void extend_run(std::size_t p, Stored* end) { runs_[p].end = end; }

  // Appends v to partition p. Returns true when this write exhausted the run
  // (the caller must install a new run before pushing to p again).
  bool push(std::size_t p, const Stored& v) {
    // The fill count lives in the line's last slot until the last item
    // overwrites it: one cache line per partition is all the loop touches.
    Line& line = lines_[p];
    const auto f = static_cast<std::uint32_t>(line.count());
    line.items[f] = v;
    return appended(p, f + 1);
  }

  // Appends a to partition p, then b to partition q. Whenever a write
  // exhausts a run, calls on_exhausted(partition), which must install the
  // partition's next run before anything else is pushed to it. When p and q
  // differ, both fill counts are read before either line is written: the
  // second append then does not wait for the first one's stores, which the
  // CPU cannot tell apart from its loads in time (about 1.5x the rate of two
  // push() calls on Zen at 2^11 partitions). Always inlined: a call per
  // pair cost the sort-merge partitioning pass about 15%.
  template <class OnExhausted>
  [[gnu::always_inline]] void push_pair(std::size_t p, const Stored& a, std::size_t q, const Stored& b, OnExhausted&& on_exhausted) {
    if (p == q) {
      if (push(p, a)) on_exhausted(p);
      if (push(q, b)) on_exhausted(q);
      return;
    }
    const unsigned exhausted = push_two(p, a, q, b);
    if (exhausted & 1u) on_exhausted(p);
    if (exhausted & 2u) on_exhausted(q);
  }

  // Writes the partially filled line of p and returns one past the last item
  // written. The run stays installed.
  Stored* drain(std::size_t p) {
    Run& run = runs_[p];
    const auto f = static_cast<std::uint32_t>(lines_[p].count());
    for (std::uint32_t i = run.start; i < f; ++i) run.line[i] = lines_[p].items[i];
    Stored* end = run.line + f;
    run.start = f;
    return end;
  }

  // Makes streamed lines visible to other cores and devices.
  static void publish() { _mm_sfence(); }

 private:
  struct alignas(kCacheLine) Line {
    Stored items[kPerLine];
    std::uint64_t& count() { return counter_word(items[kPerLine - 1]); }
  };
  struct Run {
    Stored* line = nullptr;  // cache-line-aligned destination of the staging line
    Stored* end = nullptr;
    std::uint32_t start = 0;  // first slot of the line that belongs to the run
  };

  // push() to two different partitions, both fill counts read first. Bit 0
  // of the result is set when a exhausted p's run, bit 1 when b exhausted q's.
  unsigned push_two(std::size_t p, const Stored& a, std::size_t q, const Stored& b) {
    Line& line_p = lines_[p];
    Line& line_q = lines_[q];
    const auto fill_p = static_cast<std::uint32_t>(line_p.count());
    const auto fill_q = static_cast<std::uint32_t>(line_q.count());
    line_p.items[fill_p] = a;
    line_q.items[fill_q] = b;
    return (appended(p, fill_p + 1) ? 1u : 0u) | (appended(q, fill_q + 1) ? 2u : 0u);
  }

  // Line p now holds `fill` items: records the count, or streams the full
  // line out. True when that exhausted the run.
  bool appended(std::size_t p, std::uint32_t fill) {
    if (fill < kPerLine) {
      lines_[p].count() = fill;
      return false;
    }
    const bool full = flush_full_line(p);
    lines_[p].count() = 0;
    return full;
  }

  bool flush_full_line(std::size_t p) {
    Run& run = runs_[p];
    if (run.start == 0) {
      const auto* src = reinterpret_cast<const __m128i*>(lines_[p].items);
      auto* dst = reinterpret_cast<__m128i*>(run.line);
      _mm_stream_si128(dst + 0, _mm_load_si128(src + 0));
      _mm_stream_si128(dst + 1, _mm_load_si128(src + 1));
      _mm_stream_si128(dst + 2, _mm_load_si128(src + 2));
      _mm_stream_si128(dst + 3, _mm_load_si128(src + 3));
    } else {
      for (std::uint32_t i = run.start; i < kPerLine; ++i) run.line[i] = lines_[p].items[i];
      run.start = 0;
    }
    run.line += kPerLine;
    return run.line >= run.end;
  }

  AlignedArray<Line> lines_;
  std::vector<Run> runs_;
};

}  // namespace hpcdb
