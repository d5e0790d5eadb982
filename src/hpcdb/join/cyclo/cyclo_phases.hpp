#pragma once
// The cyclo join's work per phase, on this rank's memory only (the ring
// moves the parts): each a function of explicit inputs, so that a test can
// run one alone.
#include <algorithm>
#include <cstddef>
#include <span>

#include "hpcdb/join/sorted_values.hpp"
#include "hpcdb/kernels/match_collector.hpp"
#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

// Phase sort: R_i encoded and sorted into `r`; this rank's own S part
// encoded into `own` (the ring's first buffer), sorted there when parts
// travel sorted. `scratch` holds as many values as the larger of the two.
template <class Format>
void sort_ring_inputs(const Format& format, std::span<const Tuple> inner, std::span<const Tuple> outer,
                      typename Format::Stored* r, typename Format::Stored* own, typename Format::Stored* scratch,
                      bool presort) {
  encode_sorted(format, inner, r, scratch);
  encode_into(format, outer, own);
  if (presort) sort_by_key(own, outer.size(), scratch);
}

// Phases distribute and end, per visiting part: the part joined with the
// sorted R_i in blocks, progress() between blocks. A part that travels
// unsorted is first copied into `copy` and sorted there (the part itself
// moves on to the successor meanwhile).
template <class Format, class Progress>
void join_visiting_part(const Format& format, const typename Format::Stored* r, std::size_t nr,
                        const typename Format::Stored* part, std::size_t part_tuples, bool presorted,
                        typename Format::Stored* copy, typename Format::Stored* scratch, std::size_t block,
                        MatchCollector& matches, Progress&& progress) {
  if (!presorted) {
    std::copy(part, part + part_tuples, copy);
    progress();
    sort_by_key(copy, part_tuples, scratch);
    part = copy;
  }
  join_sorted_in_blocks(format, r, nr, part, part_tuples, block, matches, progress);
}

}  // namespace hpcdb
