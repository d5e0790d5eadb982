#include "hpcdb/table/located_take.hpp"

#include <arrow/buffer.h>
#include <arrow/util/bit_util.h>

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
    std::byte* lengths = room(scratch.lengths, rows.size() * static_cast<std::uint64_t>(string_offset_bytes(*type)));
    const std::uint64_t total = column.gather_lengths(rows, lengths);
    std::byte* bytes = room(scratch.bytes, std::max<std::uint64_t>(total, 1));
    column.gather_string_bytes(rows, bytes);
    return place_strings(type, lengths, bytes, {}, n, std::move(validity), null_count);
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
