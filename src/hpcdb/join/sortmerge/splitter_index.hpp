#pragma once
// Which of the ranges between sorted splitters a key falls into, fast enough
// for the partitioning pass: range i holds the keys k with
// splitters[i-1] < k <= splitters[i], so the range of k is the index of the
// first splitter not below k (std::lower_bound), or the splitter count.
//
// A binary search over all splitters per tuple made partitioning with
// sampled splitters ten times slower than with equal-width ranges. Instead,
// [first splitter, last splitter] is cut into equal-width key buckets,
// about eight per splitter, and each bucket records the first splitter at or
// above its lowest key; a key then steps over the few splitters of its
// bucket. A bucket that holds more than kMostSteps splitters (sampled from
// skewed or clustered keys, most splitters fall into a few buckets) is cut
// again by a table of its own, and so on, so that no key steps over more
// than kMostSteps splitters. (A bucket one key wide is never cut: its
// splitters all equal that key, and so does any key in it.)
#include <cstdint>
#include <vector>

namespace hpcdb {

class SplitterIndex {
 public:
  static constexpr int kMostSteps = 4;

  SplitterIndex() = default;
  // Over `splitters`, sorted ascending and not empty.
  explicit SplitterIndex(const std::vector<std::uint64_t>& splitters);

  // A table over the keys [low, low + span]: bucket b holds the keys whose
  // (key - low) >> shift is b, and its entry is entries[base + b].
  struct Table {
    std::uint64_t low = 0;
    unsigned shift = 0;
    std::uint32_t base = 0;
  };
  // An entry: the first splitter at or above the bucket's lowest key, or,
  // with this bit set, the index of the bucket's own table.
  static constexpr std::uint32_t kOwnTable = 0x80000000u;

  // What the hot loop needs, as plain values the compiler keeps in registers.
  struct View {
    const std::uint64_t* splitters;
    const std::uint32_t* entries;
    const Table* tables;
    std::uint64_t lowest, highest;  // the first and last splitter
    unsigned count;                 // of splitters
    unsigned shift;                 // of the first table, which starts at `lowest`

    unsigned range_of(std::uint64_t key) const {
      if (key <= lowest) return 0;
      if (key > highest) return count;
      std::uint32_t entry = entries[(key - lowest) >> shift];
      while (entry & kOwnTable) {
        const Table* table = tables + (entry & ~kOwnTable);
        entry = entries[table->base + ((key - table->low) >> table->shift)];
      }
      // The next bucket's first splitter is above every key of this
      // bucket: the steps end within it.
      unsigned r = entry;
      while (splitters[r] < key) ++r;
      return r;
    }
  };
  // `splitters`: the ones the index was built over.
  View view(const std::vector<std::uint64_t>& splitters) const {
    return {splitters.data(), entries_.data(), tables_.data(), splitters.front(), splitters.back(),
            static_cast<unsigned>(splitters.size()), tables_.front().shift};
  }

  std::size_t tables() const { return tables_.size(); }  // 1 when no bucket was cut again

 private:
  void build(const std::vector<std::uint64_t>& splitters, std::uint64_t low, std::uint64_t span, std::uint32_t from,
             std::uint32_t to, std::size_t table);

  std::vector<Table> tables_;
  std::vector<std::uint32_t> entries_;
};

}  // namespace hpcdb
