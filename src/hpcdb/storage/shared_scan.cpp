#include "hpcdb/storage/shared_scan.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

// Rows evaluated at once: their bitsets stay in the first-level cache.
constexpr std::size_t kBlockRows = PredicateIndex::kBlockRows;
static_assert(ZoneMap::kZoneRows % kBlockRows == 0);

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

// Copies the projected columns of `row` into `record`.
void copy_record(const ColumnTable& table, const RecordLayout& layout, std::size_t row, std::byte* record) {
  for (std::size_t i = 0; i < layout.columns.size(); ++i) {
    const std::size_t w = layout.widths[i];
    const std::byte* src = table.data(layout.columns[i]) + row * w;
    std::byte* dst = record + layout.offsets[i];
    switch (w) {
      case 1: *dst = *src; break;
      case 2: std::memcpy(dst, src, 2); break;
      case 4: std::memcpy(dst, src, 4); break;
      case 8: std::memcpy(dst, src, 8); break;
      default: std::memcpy(dst, src, w);
    }
  }
}

// Writes every listed row of the block (those with a query's bit set) to
// the result batches of the engines whose queries it passes, and zeroes its
// bitset for the next block.
void emit_block(const ColumnTable& table, std::span<const EngineShare> shares, std::span<ResultWriter* const> writers,
                std::size_t first, const std::vector<std::uint16_t>& rows, std::uint64_t* masks, std::size_t words,
                ScanCounts& counts) {
  for (const std::uint16_t r : rows) {
    std::uint64_t* mask = masks + r * words;
    for (std::size_t e = 0; e < shares.size(); ++e) {
      const EngineShare& share = shares[e];
      std::uint64_t any = 0;
      for (std::size_t w = 0; w < share.words; ++w) any |= mask[share.first_word + w];
      if (any == 0) continue;
      std::byte* slot = writers[e]->append();
      std::memcpy(slot, mask + share.first_word, share.words * sizeof(std::uint64_t));
      copy_record(table, share.record, first + r, slot + share.record.bitset_bytes);
      ++counts.emitted;
    }
    std::fill_n(mask, words, 0);
  }
}

}  // namespace

ScanCounts& ScanCounts::operator+=(const ScanCounts& o) {
  rows += o.rows;
  rows_skipped += o.rows_skipped;
  zones += o.zones;
  zones_skipped += o.zones_skipped;
  candidates += o.candidates;
  matches += o.matches;
  emitted += o.emitted;
  evaluate_seconds += o.evaluate_seconds;
  emit_seconds += o.emit_seconds;
  return *this;
}

std::size_t assign_positions(const TableSchema& schema, std::vector<EngineShare>& shares,
                             std::vector<PositionedQuery>& positioned) {
  std::size_t word = 0;
  positioned.clear();
  for (EngineShare& share : shares) {
    share.first_word = word;
    share.words = (share.queries.size() + 63) / 64;
    std::vector<std::uint16_t> columns;
    for (std::size_t i = 0; i < share.queries.size(); ++i) {
      positioned.push_back({share.queries[i], 64 * word + i});
      columns.insert(columns.end(), share.queries[i]->projection.begin(), share.queries[i]->projection.end());
    }
    share.record = RecordLayout::of(schema, std::move(columns), share.queries.size());
    word += share.words;
  }
  return word;
}

ScanCounts shared_scan(const ColumnTable& table, const ZoneMap& zones, const ScanPlan& plan,
                       std::span<const EngineShare> shares, std::span<ResultWriter* const> writers, TaskCounter& zones_left) {
  if (writers.size() != shares.size()) throw Error("a shared scan needs one result writer per engine");
  ScanCounts counts;
  const std::size_t words = plan.words();
  std::vector<std::uint64_t> masks(kBlockRows * std::max<std::size_t>(words, 1), 0);
  ScanPlan::Scratch scratch;
  ZoneQueries zone_queries;
  std::size_t zone = 0;
  while (zones_left.next(zone)) {
    const std::size_t first = ZoneMap::first_row(zone);
    const std::size_t end = std::min(table.rows(), first + ZoneMap::kZoneRows);
    ++counts.zones;
    plan.zone_queries(zones, zone, zone_queries);
    if (words == 0 || zone_queries.count == 0) {
      ++counts.zones_skipped;
      counts.rows_skipped += end - first;
      continue;
    }
    counts.rows += end - first;
    counts.candidates += (end - first) * zone_queries.count;
    for (std::size_t block = first; block < end; block += kBlockRows) {
      const std::size_t rows = std::min(kBlockRows, end - block);
      const Clock::time_point start = Clock::now();
      plan.evaluate(zone_queries, block, rows, masks.data(), scratch);
      const Clock::time_point evaluated = Clock::now();
      emit_block(table, shares, writers, block, scratch.touched, masks.data(), words, counts);
      counts.evaluate_seconds += seconds(start, evaluated);
      counts.emit_seconds += seconds(evaluated, Clock::now());
    }
  }
  counts.matches = scratch.matches;
  return counts;
}

}  // namespace hpcdb
