#include "hpcdb/table/located_take.hpp"

#include <arrow/buffer.h>
#include <arrow/util/bit_util.h>

#include <cstring>
#include <limits>

#include "hpcdb/core/error.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/column_types.hpp"
#include "hpcdb/table/memory_pool.hpp"

namespace hpcdb {
namespace {

std::shared_ptr<arrow::Buffer> allocate(std::uint64_t bytes) {
  return value_of(arrow::AllocateBuffer(static_cast<std::int64_t>(bytes), table_memory_pool()),
                  "cannot allocate a result column");
}

std::byte* room(std::vector<std::byte>& buffer, std::uint64_t bytes) {
  if (buffer.size() < bytes) buffer.resize(bytes);
  return buffer.data();
}

// A bitmap of one byte per row (validity or bool values), and how many are 0.
std::pair<std::shared_ptr<arrow::Buffer>, std::int64_t> flag_bitmap(const ShareColumn& column,
                                                                     std::span<const RowLocation> rows, bool validity,
                                                                     TakeScratch& scratch) {
  std::byte* flags = room(scratch.flags, rows.size());
  column.gather_flags(rows, validity, flags);
  const auto n = static_cast<std::int64_t>(rows.size());
  std::shared_ptr<arrow::Buffer> bitmap = allocate(static_cast<std::uint64_t>(arrow::bit_util::BytesForBits(n)));
  const std::int64_t zeros = place_flags(flags, {}, bitmap->mutable_data(), n);
  return {std::move(bitmap), zeros};
}

// A string column straight into its buffers: the lengths (scratch) give
// the offsets, and the bytes are gathered into the values buffer.
template <typename Offset>
std::shared_ptr<arrow::Array> take_strings(const ShareColumn& column, std::span<const RowLocation> rows,
                                           std::shared_ptr<arrow::Buffer> validity, std::int64_t null_count,
                                           TakeScratch& scratch) {
  const std::uint64_t n = rows.size();
  std::byte* lengths = room(scratch.lengths, n * sizeof(Offset));
  const std::uint64_t total = column.gather_lengths(rows, lengths);
  if (total > static_cast<std::uint64_t>(std::numeric_limits<Offset>::max())) {
    throw Error("a result column of type " + column.type()->ToString() + " would hold " + std::to_string(total) +
                " bytes, more than its offsets can address: read it as large_string");
  }
  std::shared_ptr<arrow::Buffer> offsets = allocate((n + 1) * sizeof(Offset));
  auto* offset = reinterpret_cast<Offset*>(offsets->mutable_data());
  offset[0] = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    Offset length;
    std::memcpy(&length, lengths + i * sizeof(Offset), sizeof(Offset));
    offset[i + 1] = offset[i] + length;
  }
  std::shared_ptr<arrow::Buffer> data = allocate(std::max<std::uint64_t>(total, 1));
  auto* bytes = reinterpret_cast<std::byte*>(data->mutable_data());
  column.gather_string_bytes(rows, bytes, bytes + data->capacity());
  return arrow::MakeArray(arrow::ArrayData::Make(column.type(), static_cast<std::int64_t>(n),
                                                 {std::move(validity), std::move(offsets), std::move(data)}, null_count));
}

}  // namespace

std::shared_ptr<arrow::Array> take_located(const ShareColumn& column, std::span<const RowLocation> rows,
                                           TakeScratch& scratch) {
  const std::shared_ptr<arrow::DataType>& type = column.type();
  const auto n = static_cast<std::int64_t>(rows.size());
  std::shared_ptr<arrow::Buffer> validity;
  std::int64_t null_count = 0;
  if (column.has_nulls()) {
    std::tie(validity, null_count) = flag_bitmap(column, rows, true, scratch);
    if (null_count == 0) validity = nullptr;
  }
  if (is_string_type(*type)) {
    if (string_offset_bytes(*type) == 8) return take_strings<std::int64_t>(column, rows, std::move(validity), null_count, scratch);
    return take_strings<std::int32_t>(column, rows, std::move(validity), null_count, scratch);
  }
  std::shared_ptr<arrow::Buffer> data;
  if (type->id() == arrow::Type::BOOL) {
    data = flag_bitmap(column, rows, false, scratch).first;
  } else {
    const int width = fixed_value_bytes(*type);
    data = allocate(rows.size() * static_cast<std::uint64_t>(width));
    column.gather_fixed(rows, width, reinterpret_cast<std::byte*>(data->mutable_data()));
  }
  return arrow::MakeArray(arrow::ArrayData::Make(type, n, {std::move(validity), std::move(data)}, null_count));
}

}  // namespace hpcdb
