#include "hpcdb/table/row_gather.hpp"

#include <arrow/buffer.h>
#include <arrow/util/bit_util.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "hpcdb/core/error.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/column_types.hpp"
#include "hpcdb/table/memory_pool.hpp"

namespace hpcdb {
namespace {

template <int Width>
void gather_width(const std::vector<const std::byte*>& bases, std::span<const RowLocation> rows, std::byte* out) {
  for (const RowLocation& r : rows) {
    std::memcpy(out, bases[r.batch] + static_cast<std::size_t>(r.row) * Width, Width);
    out += Width;
  }
}

template <int Width>
void place_width(const std::byte* received, std::span<const std::uint64_t> placement, std::byte* out) {
  for (const std::uint64_t slot : placement) {
    std::memcpy(out, received + slot * Width, Width);
    out += Width;
  }
}

template <typename Offset>
const Offset* offsets_of(const arrow::ArrayData& chunk) {
  return chunk.GetValues<Offset>(1);
}

template <typename Offset>
std::uint64_t gather_lengths_as(const std::vector<std::shared_ptr<arrow::ArrayData>>& chunks,
                                std::span<const RowLocation> rows, std::byte* out) {
  std::vector<const Offset*> offsets;
  for (const auto& chunk : chunks) offsets.push_back(offsets_of<Offset>(*chunk));
  std::uint64_t sum = 0;
  for (const RowLocation& r : rows) {
    const Offset* o = offsets[r.batch] + r.row;
    const Offset length = o[1] - o[0];
    std::memcpy(out, &length, sizeof(Offset));
    out += sizeof(Offset);
    sum += static_cast<std::uint64_t>(length);
  }
  return sum;
}

// Strings of up to 16 bytes are copied as 16 bytes, a fixed-size copy the
// compiler inlines (a call to memcpy per string otherwise), where the source
// buffer holds them and `out_end` leaves room; the bytes past a string are
// written over by the next one.
template <typename Offset>
void gather_bytes_as(const std::vector<std::shared_ptr<arrow::ArrayData>>& chunks, std::span<const RowLocation> rows,
                     std::byte* out, const std::byte* out_end) {
  constexpr std::size_t kShort = 16;
  struct Source {
    const Offset* offsets;
    const std::byte* bytes;
    std::size_t size;
  };
  std::vector<Source> sources;
  for (const auto& chunk : chunks) {
    const std::shared_ptr<arrow::Buffer>& data = chunk->buffers[2];
    sources.push_back({offsets_of<Offset>(*chunk), data ? reinterpret_cast<const std::byte*>(data->data()) : nullptr,
                       data ? static_cast<std::size_t>(data->size()) : 0});
  }
  for (const RowLocation& r : rows) {
    const Source& source = sources[r.batch];
    const Offset* o = source.offsets + r.row;
    const auto begin = static_cast<std::size_t>(o[0]);
    const auto length = static_cast<std::size_t>(o[1] - o[0]);
    if (length <= kShort && begin + kShort <= source.size && out_end - out >= static_cast<std::ptrdiff_t>(kShort)) {
      std::memcpy(out, source.bytes + begin, kShort);
    } else if (length > 0) {
      std::memcpy(out, source.bytes + begin, length);
    }
    out += length;
  }
}

template <typename Offset>
std::shared_ptr<arrow::Array> place_strings_as(const std::shared_ptr<arrow::DataType>& type, const std::byte* lengths,
                                               const std::byte* bytes, std::span<const std::uint64_t> placement,
                                               std::int64_t rows, std::shared_ptr<arrow::Buffer> validity,
                                               std::int64_t null_count) {
  const auto n = static_cast<std::size_t>(rows);
  auto length_at = [&](std::size_t slot) {
    Offset length;
    std::memcpy(&length, lengths + slot * sizeof(Offset), sizeof(Offset));
    return static_cast<std::uint64_t>(length);
  };
  // Where each received string begins in `bytes` (source order).
  std::vector<std::uint64_t> starts(n + 1, 0);
  for (std::size_t s = 0; s < n; ++s) starts[s + 1] = starts[s] + length_at(s);
  if (starts[n] > static_cast<std::uint64_t>(std::numeric_limits<Offset>::max())) {
    throw Error("a result column of type " + type->ToString() + " would hold " + std::to_string(starts[n]) +
                " bytes, more than its offsets can address: read it as large_string, or use more ranks");
  }
  const std::string what = "cannot allocate a result column";
  std::shared_ptr<arrow::Buffer> offsets = value_of(arrow::AllocateBuffer(static_cast<std::int64_t>((n + 1) * sizeof(Offset)), table_memory_pool()), what);
  std::shared_ptr<arrow::Buffer> data = value_of(arrow::AllocateBuffer(static_cast<std::int64_t>(starts[n]), table_memory_pool()), what);
  auto* out_offsets = reinterpret_cast<Offset*>(offsets->mutable_data());
  auto* out = reinterpret_cast<std::byte*>(data->mutable_data());
  Offset at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t slot = placement.empty() ? i : static_cast<std::size_t>(placement[i]);
    const std::uint64_t length = starts[slot + 1] - starts[slot];
    out_offsets[i] = at;
    if (length > 0) std::memcpy(out + at, bytes + starts[slot], static_cast<std::size_t>(length));
    at = static_cast<Offset>(at + static_cast<Offset>(length));
  }
  out_offsets[n] = at;
  return arrow::MakeArray(arrow::ArrayData::Make(type, rows, {std::move(validity), std::move(offsets), std::move(data)}, null_count));
}

}  // namespace

RowLocator::RowLocator(const DistributedTable& table) : first_(table.batch_first_rows()) {}

void RowLocator::find_batch(std::uint64_t row) {
  batch_ = static_cast<std::size_t>(std::upper_bound(first_.begin(), first_.end(), row) - first_.begin()) - 1;
}

std::vector<RowLocation> locate_rows(const DistributedTable& table, std::span<const std::byte> rows,
                                     std::uint64_t first_row) {
  RowLocator locate(table);
  std::vector<RowLocation> located(rows.size() / sizeof(std::uint64_t));
  for (std::size_t i = 0; i < located.size(); ++i) {
    std::uint64_t row;
    std::memcpy(&row, rows.data() + i * sizeof row, sizeof row);
    row -= first_row;  // wraps past the end for rows before the share
    if (row >= locate.rows()) {
      throw Error("row " + std::to_string(row + first_row) + " was asked of a share of rows " + std::to_string(first_row) +
                  " to " + std::to_string(first_row + locate.rows()));
    }
    located[i] = locate(row);
  }
  return located;
}

ShareColumn::ShareColumn(const DistributedTable& table, int column) : type_(table.schema->field(column)->type()) {
  for (const auto& batch : table.batches) chunks_.push_back(batch->column_data(column));
  has_nulls_ = std::any_of(chunks_.begin(), chunks_.end(), [](const auto& chunk) { return chunk->GetNullCount() > 0; });
}

void ShareColumn::gather_fixed(std::span<const RowLocation> rows, int width, std::byte* out) const {
  std::vector<const std::byte*> bases;
  for (const auto& chunk : chunks_) {
    const std::shared_ptr<arrow::Buffer>& values = chunk->buffers[1];
    bases.push_back(values ? reinterpret_cast<const std::byte*>(values->data()) + chunk->offset * width : nullptr);
  }
  switch (width) {
    case 1: return gather_width<1>(bases, rows, out);
    case 2: return gather_width<2>(bases, rows, out);
    case 4: return gather_width<4>(bases, rows, out);
    case 8: return gather_width<8>(bases, rows, out);
    case 16: return gather_width<16>(bases, rows, out);
    default: throw Error("gather_fixed: no kernel for values of " + std::to_string(width) + " bytes");
  }
}

void ShareColumn::gather_flags(std::span<const RowLocation> rows, bool validity, std::byte* out) const {
  for (const RowLocation& r : rows) {
    const arrow::ArrayData& chunk = *chunks_[r.batch];
    const std::shared_ptr<arrow::Buffer>& bits = chunk.buffers[validity ? 0 : 1];
    *out++ = std::byte{static_cast<std::uint8_t>(!bits || arrow::bit_util::GetBit(bits->data(), chunk.offset + r.row))};
  }
}

int string_offset_bytes(const arrow::DataType& type) {
  return type.id() == arrow::Type::LARGE_STRING ? 8 : 4;
}

std::uint64_t ShareColumn::gather_lengths(std::span<const RowLocation> rows, std::byte* out) const {
  if (string_offset_bytes(*type_) == 8) return gather_lengths_as<std::int64_t>(chunks_, rows, out);
  return gather_lengths_as<std::int32_t>(chunks_, rows, out);
}

void ShareColumn::gather_string_bytes(std::span<const RowLocation> rows, std::byte* out,
                                      const std::byte* out_end) const {
  if (string_offset_bytes(*type_) == 8) return gather_bytes_as<std::int64_t>(chunks_, rows, out, out_end);
  gather_bytes_as<std::int32_t>(chunks_, rows, out, out_end);
}

std::uint64_t sum_lengths(const arrow::DataType& type, const std::byte* lengths, std::uint64_t count) {
  std::uint64_t sum = 0;
  const int width = string_offset_bytes(type);
  for (std::uint64_t i = 0; i < count; ++i) {
    if (width == 8) {
      std::int64_t length;
      std::memcpy(&length, lengths + i * 8, 8);
      sum += static_cast<std::uint64_t>(length);
    } else {
      std::int32_t length;
      std::memcpy(&length, lengths + i * 4, 4);
      sum += static_cast<std::uint64_t>(length);
    }
  }
  return sum;
}

void place_fixed(const std::byte* received, std::span<const std::uint64_t> placement, int width, std::byte* out) {
  switch (width) {
    case 1: return place_width<1>(received, placement, out);
    case 2: return place_width<2>(received, placement, out);
    case 4: return place_width<4>(received, placement, out);
    case 8: return place_width<8>(received, placement, out);
    case 16: return place_width<16>(received, placement, out);
    default: throw Error("place_fixed: no kernel for values of " + std::to_string(width) + " bytes");
  }
}

std::int64_t place_flags(const std::byte* received, std::span<const std::uint64_t> placement, std::uint8_t* bitmap,
                         std::int64_t rows) {
  std::int64_t zeros = 0;
  std::memset(bitmap, 0, static_cast<std::size_t>(arrow::bit_util::BytesForBits(rows)));
  for (std::int64_t i = 0; i < rows; ++i) {
    const auto slot = placement.empty() ? static_cast<std::size_t>(i) : static_cast<std::size_t>(placement[static_cast<std::size_t>(i)]);
    if (received[slot] != std::byte{0}) {
      arrow::bit_util::SetBit(bitmap, i);
    } else {
      ++zeros;
    }
  }
  return zeros;
}

std::shared_ptr<arrow::Array> place_strings(const std::shared_ptr<arrow::DataType>& type, const std::byte* lengths,
                                            const std::byte* bytes, std::span<const std::uint64_t> placement,
                                            std::int64_t rows, std::shared_ptr<arrow::Buffer> validity,
                                            std::int64_t null_count) {
  if (string_offset_bytes(*type) == 8) {
    return place_strings_as<std::int64_t>(type, lengths, bytes, placement, rows, std::move(validity), null_count);
  }
  return place_strings_as<std::int32_t>(type, lengths, bytes, placement, rows, std::move(validity), null_count);
}

}  // namespace hpcdb
