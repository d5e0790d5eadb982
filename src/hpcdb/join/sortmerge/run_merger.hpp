#pragma once
// One level of the sort-merge join's multi-way merge.
//
// In every segment (a key sub-range), every group of up to `fan_in` adjacent
// runs becomes one run, which takes in the output buffer the slots its runs
// took in the input. A group of more than two runs is cut by key into
// pieces of about kMergePieceBytes; each piece is merged by a tree of
// two-way SIMD merges whose inner levels live in two cache-sized buffers of
// the worker thread, so a level reads and writes memory once whatever the
// fan-in. Cutting by key keeps equal keys in one piece, so every run can be
// cut at the same key. A group of one or two runs needs no inner level and
// is cut only to give every thread work: each cut costs binary searches
// through memory. Pieces are the tasks the threads share.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/kernels/sorted_runs.hpp"

namespace hpcdb {

// A piece's output, and each of the two buffers its inner merge levels use
// (two of them fit a 512 KiB L2 with room for the inputs).
constexpr std::size_t kMergePieceBytes = 128 * 1024;

namespace run_merge {

// Where the pieces of a group start in its runs: row p (k = runs.size()
// entries) holds the first position of piece p in every run; the last row
// holds the run sizes.
template <class Format, class Stored>
std::vector<std::size_t> cut_into_pieces(const Format& format, const std::vector<SortedRun<Stored>>& runs,
                                         std::size_t piece_tuples) {
  const std::size_t k = runs.size();
  std::vector<std::size_t> cuts(k, 0);
  std::size_t total = 0;
  for (const auto& run : runs) total += run.size;
  if (k == 1) {
    for (std::size_t at = piece_tuples; at < total; at += piece_tuples) cuts.push_back(at);
  } else if (total > piece_tuples) {
    // Candidate pivots: every stride-th key of every run, each standing for
    // about `stride` tuples.
    const std::size_t stride = std::max<std::size_t>(1, piece_tuples / (2 * k));
    std::vector<std::uint64_t> keys;
    for (const auto& run : runs) {
      for (std::size_t j = stride; j < run.size; j += stride) keys.push_back(format.key(run.data[j]));
    }
    std::sort(keys.begin(), keys.end());
    auto key_below = [&format](const Stored& v, std::uint64_t key) { return format.key(v) < key; };
    std::size_t taken = 0;      // tuples before the last cut
    std::size_t estimated = 0;  // candidates' tuples since the last cut
    for (const std::uint64_t pivot : keys) {
      estimated += stride;
      if (estimated < piece_tuples) continue;
      // The piece ends before the first tuple of key `pivot` in every run.
      const std::size_t row = cuts.size();
      std::size_t before = 0;
      for (const auto& run : runs) {
        const auto position = static_cast<std::size_t>(std::lower_bound(run.data, run.data + run.size, pivot, key_below) - run.data);
        cuts.push_back(position);
        before += position;
      }
      if (before <= taken) {  // a repeated key: the piece grows past it
        cuts.resize(row);
        continue;
      }
      taken = before;
      estimated = 0;
    }
  }
  for (const auto& run : runs) cuts.push_back(run.size);
  return cuts;
}

// A worker thread's merge buffers: they grow only for a piece larger than
// planned (many tuples of one key).
template <class Stored>
struct PieceBuffers {
  std::vector<Stored> spare[2];
  std::vector<SortedRun<Stored>> parts;
  std::vector<std::size_t> slots;  // where each part starts within the piece
};

// Merges the parts [first[i], last[i]) of runs[i], for all i, into out.
template <class Format, class Stored>
void merge_piece(const std::vector<SortedRun<Stored>>& runs, const std::size_t* first, const std::size_t* last,
                 Stored* out, PieceBuffers<Stored>& buffers) {
  auto& parts = buffers.parts;
  auto& slots = buffers.slots;
  parts.clear();
  slots.clear();
  std::size_t total = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (last[i] == first[i]) continue;
    parts.push_back({runs[i].data + first[i], last[i] - first[i]});
    slots.push_back(total);
    total += last[i] - first[i];
  }
  if (parts.empty()) return;
  if (parts.size() == 1) {
    std::memcpy(out, parts[0].data, total * sizeof(Stored));
    return;
  }
  if (parts.size() > 2) {  // inner levels: only these use the buffers
    for (auto& spare : buffers.spare) {
      if (spare.size() < total) spare.resize(total);
    }
  }
  // Inner levels: adjacent parts merged pairwise into the other buffer, at
  // the slots they take in the piece (a lone last part is copied, so that
  // every part of a level lives in that level's buffer).
  for (unsigned level = 0; parts.size() > 2; ++level) {
    Stored* target = buffers.spare[level % 2].data();
    std::size_t kept = 0;
    for (std::size_t i = 0; i < parts.size(); i += 2) {
      Stored* destination = target + slots[i];
      std::size_t size = parts[i].size;
      if (i + 1 < parts.size()) {
        Format::merge(parts[i].data, parts[i].size, parts[i + 1].data, parts[i + 1].size, destination);
        size += parts[i + 1].size;
      } else {
        std::memcpy(destination, parts[i].data, size * sizeof(Stored));
      }
      parts[kept] = {destination, size};
      slots[kept] = slots[i];
      ++kept;
    }
    parts.resize(kept);
    slots.resize(kept);
  }
  Format::merge(parts[0].data, parts[0].size, parts[1].data, parts[1].size, out);
}

}  // namespace run_merge

// Merges every group of up to fan_in adjacent runs of each segment from
// `from` into the same slots of `to`; returns the segments' merged runs.
template <class Format, class Stored>
std::vector<std::vector<SortedRun<Stored>>> merge_level(const Format& format,
                                                        const std::vector<std::vector<SortedRun<Stored>>>& segments,
                                                        std::size_t fan_in, const Stored* from, Stored* to,
                                                        unsigned threads) {
  struct Group {
    std::vector<SortedRun<Stored>> runs;
    std::size_t segment = 0;
    Stored* out = nullptr;
    std::size_t total = 0;
    std::vector<std::size_t> cuts;
  };
  struct Piece {
    std::size_t group, row;
  };
  const std::size_t piece_tuples = std::max<std::size_t>(64, kMergePieceBytes / sizeof(Stored));
  std::size_t all_tuples = 0;
  for (const auto& runs : segments) {
    for (const auto& run : runs) all_tuples += run.size;
  }
  // Groups without inner levels: pieces only as small as balancing the
  // threads needs (about eight pieces per thread over the whole level).
  const std::size_t balanced_tuples = std::max(piece_tuples, all_tuples / (8 * std::size_t{threads}) + 1);
  std::vector<Group> groups;
  std::vector<Piece> pieces;
  for (std::size_t seg = 0; seg < segments.size(); ++seg) {
    const auto& runs = segments[seg];
    for (std::size_t i = 0; i < runs.size(); i += fan_in) {
      Group group;
      group.runs.assign(runs.begin() + static_cast<std::ptrdiff_t>(i),
                        runs.begin() + static_cast<std::ptrdiff_t>(std::min(runs.size(), i + fan_in)));
      group.segment = seg;
      group.out = to + (group.runs.front().data - from);
      for (const auto& run : group.runs) group.total += run.size;
      group.cuts = run_merge::cut_into_pieces(format, group.runs, group.runs.size() > 2 ? piece_tuples : balanced_tuples);
      const std::size_t rows = group.cuts.size() / group.runs.size();
      for (std::size_t row = 0; row + 1 < rows; ++row) pieces.push_back({groups.size(), row});
      groups.push_back(std::move(group));
    }
  }
  TaskCounter tasks(pieces.size());
  run_on_threads(threads, [&](unsigned) {
    run_merge::PieceBuffers<Stored> buffers;
    std::size_t t = 0;
    while (tasks.next(t)) {
      const Group& group = groups[pieces[t].group];
      const std::size_t k = group.runs.size();
      const std::size_t* first = group.cuts.data() + pieces[t].row * k;
      std::size_t offset = 0;  // the piece's first slot in the merged run
      for (std::size_t i = 0; i < k; ++i) offset += first[i];
      run_merge::merge_piece<Format>(group.runs, first, first + k, group.out + offset, buffers);
    }
  });
  std::vector<std::vector<SortedRun<Stored>>> merged(segments.size());
  for (const Group& group : groups) merged[group.segment].push_back({group.out, group.total});
  return merged;
}

}  // namespace hpcdb
