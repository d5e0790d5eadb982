#include "hpcdb/storage/shared_scan.hpp"

#include <bit>
#include <cstring>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

constexpr std::size_t kBlockRows = PredicateIndex::kBlockRows;

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

}  // namespace

ScanCounts& ScanCounts::operator+=(const ScanCounts& o) {
  rows += o.rows;
  candidates += o.candidates;
  matches += o.matches;
  emitted += o.emitted;
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

ScanCounts shared_scan(const ColumnTable& table, const PredicateIndex& index, std::span<const EngineShare> shares,
                       std::span<ResultWriter* const> writers, std::size_t first, std::size_t end) {
  if (writers.size() != shares.size()) throw Error("a shared scan needs one result writer per engine");
  ScanCounts counts;
  const std::size_t words = index.words();
  if (words == 0) return counts;
  std::vector<std::uint64_t> masks(kBlockRows * words);
  PredicateIndex::Scratch scratch;
  for (std::size_t block = first; block < end; block += kBlockRows) {
    const std::size_t rows = std::min(kBlockRows, end - block);
    counts.rows += rows;
    index.candidates(block, rows, masks.data());
    counts.candidates += index.check_residuals(block, rows, masks.data(), scratch);
    for (std::size_t r = 0; r < rows; ++r) {
      std::uint64_t* mask = masks.data() + r * words;
      std::uint64_t any = 0;
      for (std::size_t w = 0; w < words; ++w) any |= mask[w];
      if (any == 0) continue;
      for (std::size_t e = 0; e < shares.size(); ++e) {
        const EngineShare& share = shares[e];
        bool wanted = false;
        for (std::size_t w = 0; w < share.words; ++w) wanted |= mask[share.first_word + w] != 0;
        if (!wanted) continue;
        for (std::size_t w = 0; w < share.words; ++w) counts.matches += static_cast<std::uint64_t>(std::popcount(mask[share.first_word + w]));
        std::byte* slot = writers[e]->append();
        std::memcpy(slot, mask + share.first_word, share.words * sizeof(std::uint64_t));
        copy_record(table, share.record, block + r, slot + share.record.bitset_bytes);
        ++counts.emitted;
      }
    }
  }
  return counts;
}

}  // namespace hpcdb
