#pragma once
// Local radix partitioning of one array in one or more passes.
//
// Pass k splits every partition the earlier passes produced on the next
// `pass_bits[k]` key bits (the lowest first), so a pass never has a larger
// fan-out than it was planned with: the fan-out of one pass is what the
// write-combining lines and the TLB sustain, and as many passes as it takes
// bring the final partitions to cache size. Each pass counts (a histogram per
// partition of the pass before; the first pass may be handed its counts),
// then scatters into exactly sized ranges:
//   streaming  software write-combining, a cache line per partition, full
//              lines written with non-temporal stores (no read for
//              ownership, the caches and the TLB hold only the lines)
//   direct     plain stores, two items at a time with both write cursors read
//              first, for outputs that fit the cache and are read right after
// The input is only read: the first pass writes to a scratch array, further
// passes ping-pong between it and a second one; both are allocated and
// pre-faulted up front (or handed in by the caller) and only grown when a
// larger input comes. Final partition i holds the
// items whose digits, first pass's most significant, spell i; its range is
// [starts[i], starts[i + 1]).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/kernels/write_combiner.hpp"

namespace hpcdb {

enum class ScatterStores { direct, streaming };

// Splits `total_bits` into the fewest passes of at most `max_bits_per_pass`
// bits, as evenly as possible (larger passes first). No bits, no passes.
inline std::vector<unsigned> split_radix_bits(unsigned total_bits, unsigned max_bits_per_pass) {
  if (max_bits_per_pass == 0) throw Error("a radix pass needs at least one bit");
  std::vector<unsigned> passes;
  if (total_bits == 0) return passes;
  const unsigned count = (total_bits + max_bits_per_pass - 1) / max_bits_per_pass;
  for (unsigned k = 0; k < count; ++k) passes.push_back(total_bits / count + (k < total_bits % count ? 1 : 0));
  return passes;
}

// Adds to counts[(key_of(item) >> shift) & mask] for every item. Four
// interleaved sets of counters, as radix_histogram() (radix_histogram.hpp)
// explains, and eight keys read before any counter is written.
template <class Stored, class KeyOf>
void digit_histogram(const Stored* in, std::size_t n, KeyOf key_of, unsigned shift, std::uint64_t mask,
                     std::uint64_t* counts, std::vector<std::uint32_t>& ways) {
  constexpr std::size_t kWays = 4;
  const std::size_t fanout = mask + 1;
  ways.assign(kWays * fanout, 0);
  std::uint32_t* way = ways.data();
  constexpr std::size_t kBatch = 2 * kWays;
  std::size_t i = 0;
  // 32-bit counters: a block of at most 2^32 - 1 items at a time.
  while (i < n) {
    const std::size_t block_end = i + std::min<std::size_t>(n - i, 0xFFFFFFF0u);
    for (; i + kBatch <= block_end; i += kBatch) {
      std::size_t slot[kBatch];
      for (std::size_t b = 0; b < kBatch; ++b) slot[b] = (key_of(in[i + b]) >> shift) & mask;
      for (std::size_t b = 0; b < kBatch; ++b) ++way[(b % kWays) * fanout + slot[b]];
    }
    for (; i < block_end; ++i) ++way[(key_of(in[i]) >> shift) & mask];
    for (std::size_t d = 0; d < fanout; ++d) {
      counts[d] += std::uint64_t{way[d]} + way[fanout + d] + way[2 * fanout + d] + way[3 * fanout + d];
    }
    std::fill(ways.begin(), ways.end(), 0u);
  }
}

template <class Stored>
class LocalRadixPartitioner {
 public:
  // pass_bits: the bits of each pass, lowest key bits first (empty: no
  // partitioning). `capacity`: items of the largest input expected, for
  // which the scratch is allocated and pre-faulted now.
  LocalRadixPartitioner(std::vector<unsigned> pass_bits, std::size_t capacity, ScatterStores stores)
      : LocalRadixPartitioner(std::move(pass_bits), stores) {
    reserve(capacity);
  }

  // Scratch memory the caller allocated (scratch_items(capacity) items,
  // pre-faulted), used until an input needs more.
  LocalRadixPartitioner(std::vector<unsigned> pass_bits, Stored* scratch, std::size_t scratch_items, ScatterStores stores)
      : LocalRadixPartitioner(std::move(pass_bits), stores) {
    if (!pass_bits_.empty()) scratch_ = AlignedArray<Stored>(scratch, scratch_items, nullptr);
  }

  // Scratch items the partitioner needs for inputs of up to `items` items.
  static std::size_t scratch_items(std::size_t items, std::size_t passes) {
    return passes == 0 ? 0 : passes == 1 ? items : 2 * items;
  }

 private:
  LocalRadixPartitioner(std::vector<unsigned> pass_bits, ScatterStores stores)
      : pass_bits_(std::move(pass_bits)), stores_(stores) {
    unsigned widest = 0;
    for (unsigned bits : pass_bits_) {
      if (bits == 0 || bits > 16) throw Error("a local radix pass takes 1 to 16 bits");
      total_bits_ += bits;
      widest = std::max(widest, bits);
    }
    if (total_bits_ > 24) throw Error("local radix passes take at most 24 bits in all");
    if (widest > 0) combiner_ = std::make_unique<WriteCombiner<Stored>>(std::size_t{1} << widest);
  }

 public:

  const std::vector<unsigned>& pass_bits() const { return pass_bits_; }
  unsigned total_bits() const { return total_bits_; }
  std::size_t partitions() const { return std::size_t{1} << total_bits_; }
  // Items of the largest input the scratch holds.
  std::size_t capacity() const { return pass_bits_.size() <= 1 ? scratch_.size() : scratch_.size() / 2; }
  ScatterStores stores() const { return stores_; }

  // Makes room for inputs of `items` (pre-faulted); a no-op when it has it.
  void reserve(std::size_t items) {
    if (items <= capacity() || pass_bits_.empty()) return;
    scratch_ = AlignedArray<Stored>(scratch_items(items, pass_bits_.size()), Prefault::yes);
  }

  // Partitions data[0, n) on the key bits key_of(item) & low_mask(total_bits()).
  // Returns where the partitions are (data itself when there are no passes,
  // else this partitioner's scratch, valid until the next call); starts gets
  // partitions() + 1 entries. `first_counts`, when given, holds the input's
  // items per digit of the first pass, counted earlier (direct stores only).
  // They must be exact: a total that differs from n is refused before the
  // scatter, a wrong split among the digits only after it, when the scatter
  // may already have written past a range (a caller's bug, reported).
  template <class KeyOf>
  const Stored* partition(const Stored* data, std::size_t n, KeyOf key_of, std::vector<std::uint64_t>& starts,
                          const std::uint64_t* first_counts = nullptr) {
    if (pass_bits_.empty()) {
      starts.assign({0, n});
      return data;
    }
    reserve(n);
    const Stored* from = data;
    Stored* to = scratch_.data();
    Stored* spare = scratch_.data() + capacity();
    // Group boundaries of the pass before (one group: the whole input).
    std::vector<std::uint64_t>& groups = groups_;
    groups.assign({0, n});
    unsigned shift = 0;
    for (unsigned bits : pass_bits_) {
      const std::size_t fanout = std::size_t{1} << bits;
      const std::size_t group_count = groups.size() - 1;
      starts.assign(group_count * fanout + 1, 0);
      const bool precounted = shift == 0 && first_counts != nullptr;
      if (precounted) {
        if (stores_ != ScatterStores::direct) throw Error("local radix pass: given counts need direct stores");
        std::copy(first_counts, first_counts + fanout, starts.begin() + 1);
      } else {
        for (std::size_t g = 0; g < group_count; ++g) {
          const std::uint64_t begin = groups[g];
          std::uint64_t* counts = starts.data() + g * fanout + 1;
          digit_histogram(from + begin, groups[g + 1] - begin, key_of, shift, fanout - 1, counts, ways_);
        }
      }
      for (std::size_t i = 1; i < starts.size(); ++i) starts[i] += starts[i - 1];
      if (precounted && starts.back() != n) throw Error("local radix pass: the counts given do not add up to its input");
      for (std::size_t g = 0; g < group_count; ++g) {
        const std::uint64_t begin = groups[g];
        scatter(from + begin, groups[g + 1] - begin, key_of, shift, bits, to, starts.data() + g * fanout);
      }
      if (precounted && !filled_as_counted(starts.data(), fanout)) {
        throw Error("local radix pass: the counts given do not match its input");
      }
      if (stores_ == ScatterStores::streaming) WriteCombiner<Stored>::publish();
      shift += bits;
      from = to;
      std::swap(to, spare);
      groups.swap(starts);
    }
    starts.swap(groups);
    return from;
  }

 private:
  // Items of in[0, n) to out, digit d's at out[starts[d], starts[d + 1]).
  template <class KeyOf>
  void scatter(const Stored* in, std::size_t n, KeyOf key_of, unsigned shift, unsigned bits, Stored* out,
               const std::uint64_t* starts) {
    if (n == 0) return;
    const std::uint64_t mask = low_mask(bits);
    const std::size_t fanout = std::size_t{1} << bits;
    if (stores_ == ScatterStores::direct) {
      cursors_.assign(starts, starts + fanout);
      std::uint64_t* cursor = cursors_.data();
      std::size_t i = 0;
      for (; i + 2 <= n; i += 2) {
        const std::size_t a = (key_of(in[i]) >> shift) & mask;
        const std::size_t b = (key_of(in[i + 1]) >> shift) & mask;
        // Both cursors read before either is written (the CPU cannot tell
        // in time that they usually differ).
        const std::uint64_t at_a = cursor[a];
        const std::uint64_t at_b = cursor[b] + (a == b ? 1 : 0);
        out[at_a] = in[i];
        out[at_b] = in[i + 1];
        cursor[a] = at_a + 1;
        cursor[b] = at_b + 1;
      }
      if (i < n) out[cursor[(key_of(in[i]) >> shift) & mask]++] = in[i];
      return;
    }
    WriteCombiner<Stored>& combiner = *combiner_;
    for (std::size_t d = 0; d < fanout; ++d) combiner.set_run(d, out + starts[d], out + starts[d + 1]);
    auto nothing = [](std::size_t) {};
    std::size_t i = 0;
    for (; i + 2 <= n; i += 2) {
      combiner.push_pair((key_of(in[i]) >> shift) & mask, in[i], (key_of(in[i + 1]) >> shift) & mask, in[i + 1], nothing);
    }
    if (i < n) combiner.push((key_of(in[i]) >> shift) & mask, in[i]);
    for (std::size_t d = 0; d < fanout; ++d) {
      if (starts[d + 1] > starts[d]) combiner.drain(d);
    }
  }

  // Whether the last (direct) scatter left every cursor at the end of its
  // range, as exact counts do.
  bool filled_as_counted(const std::uint64_t* starts, std::size_t fanout) const {
    if (starts[fanout] == 0) return true;  // nothing scattered
    for (std::size_t d = 0; d < fanout; ++d) {
      if (cursors_[d] != starts[d + 1]) return false;
    }
    return true;
  }

  std::vector<unsigned> pass_bits_;
  unsigned total_bits_ = 0;
  ScatterStores stores_;
  AlignedArray<Stored> scratch_;
  std::unique_ptr<WriteCombiner<Stored>> combiner_;
  std::vector<std::uint32_t> ways_;
  std::vector<std::uint64_t> cursors_;
  std::vector<std::uint64_t> groups_;
};

}  // namespace hpcdb
