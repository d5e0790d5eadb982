#pragma once
// How the sort-merge join splits the key space into one range per rank, in
// key order: equal-width ranges between the smallest and largest key (dense
// keys), or ranges between splitters sampled from the data (any key
// distribution). Equal keys always fall into the same range.
#include <cstdint>
#include <vector>

#include "hpcdb/data/relation.hpp"
#include "hpcdb/join/sortmerge/splitter_index.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

class KeyRanges {
 public:
  static KeyRanges equal_width(std::uint64_t min_key, std::uint64_t max_key, unsigned ranges);
  // Range i holds the keys k with splitters[i-1] < k <= splitters[i].
  static KeyRanges between_splitters(std::vector<std::uint64_t> splitters);

  unsigned count() const { return count_; }

  // The smallest key that range_of() maps to `range` or a later range (the
  // largest key of the ranges when there is none).
  std::uint64_t lowest_key(unsigned range) const;

  // Calls body(range_of) with a range function whose parameters are plain
  // values (so a hot loop keeps them in registers).
  template <class Body>
  void visit(Body&& body) const {
    if (count_ == 1) {
      body([](std::uint64_t) { return 0u; });
    } else if (!splitters_.empty()) {
      const SplitterIndex::View index = splitter_index_.view(splitters_);
      body([index](std::uint64_t key) { return index.range_of(key); });
    } else if (direct_) {
      const std::uint64_t min_key = min_key_;
      body([min_key](std::uint64_t key) { return static_cast<unsigned>(key - min_key); });
    } else if (scale_ < 64) {
      const std::uint64_t min_key = min_key_, multiplier = multiplier_;
      const unsigned scale = scale_;
      body([min_key, multiplier, scale](std::uint64_t key) {
        return static_cast<unsigned>(((key - min_key) * multiplier) >> scale);
      });
    } else {
      const std::uint64_t min_key = min_key_, multiplier = multiplier_;
      body([min_key, multiplier](std::uint64_t key) {
        return static_cast<unsigned>((static_cast<Wide>(key - min_key) * multiplier) >> 64);
      });
    }
  }
  // The range function of visit(), for a single key.
  unsigned range_of(std::uint64_t key) const {
    unsigned range = 0;
    visit([&](auto range_of_key) { range = range_of_key(key); });
    return range;
  }

 private:
  __extension__ typedef unsigned __int128 Wide;

  unsigned count_ = 1;
  std::uint64_t min_key_ = 0;
  std::uint64_t max_key_ = ~std::uint64_t{0};  // equal width: range_of() is monotone up to here
  // Equal width: range_of() = (offset * multiplier_) >> scale_, with
  // multiplier_ = floor(2^scale_ * ranges / span). A 64-bit product
  // (scale_ < 64: offset * multiplier_ < 2^scale_ * ranges <= 2^64) when
  // the multiplier keeps 24 bits, as for any span up to 2^39; otherwise the
  // high half of a 128-bit one (scale_ = 64), with which the sort-merge
  // partition phase took 0.22 s instead of 0.195-0.205 s (32M x 32M, 2 ranks).
  std::uint64_t multiplier_ = 0;
  unsigned scale_ = 64;
  bool direct_ = false;           // span <= ranges: one key per range
  std::vector<std::uint64_t> splitters_;
  SplitterIndex splitter_index_;  // over splitters_
};

// Collective. Samples keys of both relations on every rank and returns
// ranges - 1 splitters that cut the sample into equal parts.
std::vector<std::uint64_t> sample_splitters(const Cluster& cluster, const Relation& inner, const Relation& outer,
                                            unsigned ranges);

}  // namespace hpcdb
