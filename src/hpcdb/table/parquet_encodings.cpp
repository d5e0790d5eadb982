#include "hpcdb/table/parquet_encodings.hpp"

#include <arrow/array.h>
#include <arrow/util/compression.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <unordered_set>

#include "hpcdb/table/arrow_status.hpp"

namespace hpcdb {
namespace {

// Values a column's choice is made from: a few of Parquet's pages.
constexpr std::size_t kSampleValues = std::size_t{1} << 16;

// DELTA_BINARY_PACKED's shape as Arrow writes it.
constexpr std::size_t kDeltaBlock = 128;
constexpr std::size_t kDeltaMiniblock = 32;

std::uint64_t varint_bytes(std::uint64_t value) {
  std::uint64_t bytes = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++bytes;
  }
  return bytes;
}

// Differences wrap as Parquet's do, at the width the values are stored in.
std::int64_t wrapped_difference(std::int64_t value, std::int64_t previous, int value_bytes) {
  if (value_bytes == 4) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(value) - static_cast<std::uint32_t>(previous));
  }
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(value) - static_cast<std::uint64_t>(previous));
}

std::uint64_t delta_bytes(std::span<const std::int64_t> values, int value_bytes) {
  if (values.size() < 2) return values.size() * 10;
  std::uint64_t bytes = 0;
  std::vector<std::uint64_t> deltas;
  for (std::size_t first = 1; first < values.size(); first += kDeltaBlock) {
    const std::size_t end = std::min(values.size(), first + kDeltaBlock);
    deltas.clear();
    std::int64_t least = std::numeric_limits<std::int64_t>::max();
    for (std::size_t i = first; i < end; ++i) {
      const std::int64_t delta = wrapped_difference(values[i], values[i - 1], value_bytes);
      deltas.push_back(static_cast<std::uint64_t>(delta));
      least = std::min(least, delta);
    }
    const auto zigzag = (static_cast<std::uint64_t>(least) << 1) ^ static_cast<std::uint64_t>(least >> 63);
    bytes += varint_bytes(zigzag) + kDeltaBlock / kDeltaMiniblock;
    for (std::size_t m = 0; m < deltas.size(); m += kDeltaMiniblock) {
      std::uint64_t widest = 0;
      for (std::size_t i = m; i < std::min(deltas.size(), m + kDeltaMiniblock); ++i) {
        widest = std::max(widest, deltas[i] - static_cast<std::uint64_t>(least));
      }
      bytes += kDeltaMiniblock * static_cast<std::uint64_t>(std::bit_width(widest)) / 8;
    }
  }
  return bytes;
}

std::uint64_t dictionary_bytes(std::span<const std::int64_t> values, int value_bytes,
                               std::int64_t dictionary_page_bytes) {
  const auto most = static_cast<std::size_t>(dictionary_page_bytes / value_bytes);
  std::unordered_set<std::int64_t> distinct;
  distinct.reserve(std::min(most + 1, values.size()));
  for (const std::int64_t v : values) {
    distinct.insert(v);
    if (distinct.size() > most) return std::numeric_limits<std::uint64_t>::max();
  }
  const auto index_bits = static_cast<std::uint64_t>(std::max(1, static_cast<int>(std::bit_width(distinct.size() - 1))));
  return distinct.size() * static_cast<std::uint64_t>(value_bytes) + (values.size() * index_bits + 7) / 8;
}

std::uint64_t plain_snappy_bytes(std::span<const std::int64_t> values, int value_bytes) {
  std::vector<std::uint8_t> plain(values.size() * static_cast<std::size_t>(value_bytes));
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (value_bytes == 4) {
      const auto v = static_cast<std::int32_t>(values[i]);
      std::memcpy(plain.data() + i * 4, &v, 4);
    } else {
      std::memcpy(plain.data() + i * 8, &values[i], 8);
    }
  }
  const std::string what = "cannot estimate a Parquet column's size";
  const std::unique_ptr<arrow::util::Codec> codec =
      value_of(arrow::util::Codec::Create(arrow::Compression::SNAPPY), what);
  const auto n = static_cast<std::int64_t>(plain.size());
  std::vector<std::uint8_t> out(static_cast<std::size_t>(codec->MaxCompressedLen(n, plain.data())));
  return static_cast<std::uint64_t>(
      value_of(codec->Compress(n, plain.data(), static_cast<std::int64_t>(out.size()), out.data()), what));
}

template <class ArrayType>
void append_values(const arrow::Array& array, std::size_t limit, std::vector<std::int64_t>& out) {
  const auto& typed = static_cast<const ArrayType&>(array);
  for (std::int64_t i = 0; i < typed.length() && out.size() < limit; ++i) {
    if (typed.IsValid(i)) out.push_back(static_cast<std::int64_t>(typed.Value(i)));
  }
}

// A decimal's value as the integer Parquet stores it: its low `Integer`
// bytes (all of a decimal32 or decimal64; a decimal128 of up to 18 digits
// fits its low 64 bits).
template <class Integer>
void append_decimals(const arrow::Array& array, std::size_t limit, std::vector<std::int64_t>& out) {
  const auto& typed = static_cast<const arrow::FixedSizeBinaryArray&>(array);
  for (std::int64_t i = 0; i < typed.length() && out.size() < limit; ++i) {
    if (!typed.IsValid(i)) continue;
    Integer low = 0;
    std::memcpy(&low, typed.GetValue(i), sizeof low);
    out.push_back(low);
  }
}

void append_integers(const arrow::Array& array, std::size_t limit, std::vector<std::int64_t>& out) {
  switch (array.type_id()) {
    case arrow::Type::INT8: return append_values<arrow::Int8Array>(array, limit, out);
    case arrow::Type::INT16: return append_values<arrow::Int16Array>(array, limit, out);
    case arrow::Type::INT32: return append_values<arrow::Int32Array>(array, limit, out);
    case arrow::Type::INT64: return append_values<arrow::Int64Array>(array, limit, out);
    case arrow::Type::UINT8: return append_values<arrow::UInt8Array>(array, limit, out);
    case arrow::Type::UINT16: return append_values<arrow::UInt16Array>(array, limit, out);
    case arrow::Type::UINT32: return append_values<arrow::UInt32Array>(array, limit, out);
    case arrow::Type::UINT64: return append_values<arrow::UInt64Array>(array, limit, out);
    case arrow::Type::DATE32: return append_values<arrow::Date32Array>(array, limit, out);
    case arrow::Type::TIMESTAMP: {
      const std::size_t first = out.size();
      append_values<arrow::TimestampArray>(array, limit, out);
      // Parquet has no seconds: Arrow's writer stores them as milliseconds.
      if (static_cast<const arrow::TimestampType&>(*array.type()).unit() == arrow::TimeUnit::SECOND) {
        for (std::size_t i = first; i < out.size(); ++i) out[i] *= 1000;
      }
      return;
    }
    case arrow::Type::DECIMAL32: return append_decimals<std::int32_t>(array, limit, out);
    case arrow::Type::DECIMAL64:
    case arrow::Type::DECIMAL128: return append_decimals<std::int64_t>(array, limit, out);
    default: return;
  }
}

}  // namespace

std::string to_string(ParquetValueEncoding encoding) {
  switch (encoding) {
    case ParquetValueEncoding::dictionary: return "dictionary";
    case ParquetValueEncoding::delta: return "delta";
    case ParquetValueEncoding::plain: return "plain";
  }
  return "";
}

EncodingEstimate estimate_encodings(std::span<const std::int64_t> values, int value_bytes,
                                    std::int64_t dictionary_page_bytes) {
  EncodingEstimate e;
  e.dictionary = dictionary_bytes(values, value_bytes, dictionary_page_bytes);
  e.delta = delta_bytes(values, value_bytes);
  e.plain = plain_snappy_bytes(values, value_bytes);
  // Delta where it is clearly smaller (it is also the fastest to write);
  // else the smaller of the other two (a dictionary that overflows its page
  // falls back to plain anyway, after trying).
  const std::uint64_t other = std::min(e.dictionary, e.plain);
  if (e.delta <= other / 5 * 4) {
    e.choice = ParquetValueEncoding::delta;
  } else {
    e.choice = e.dictionary <= e.plain ? ParquetValueEncoding::dictionary : ParquetValueEncoding::plain;
  }
  return e;
}

int integer_storage_bytes(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::INT8:
    case arrow::Type::INT16:
    case arrow::Type::INT32:
    case arrow::Type::UINT8:
    case arrow::Type::UINT16:
    case arrow::Type::UINT32:
    case arrow::Type::DATE32: return 4;
    case arrow::Type::INT64:
    case arrow::Type::UINT64:
    case arrow::Type::TIMESTAMP: return 8;
    case arrow::Type::DECIMAL32:
    case arrow::Type::DECIMAL64:
    case arrow::Type::DECIMAL128: {
      const int precision = static_cast<const arrow::DecimalType&>(type).precision();
      return precision <= 9 ? 4 : precision <= 18 ? 8 : 0;
    }
    default: return 0;
  }
}

std::vector<std::int64_t> integer_sample(const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches, int column,
                                         std::size_t limit) {
  std::vector<std::int64_t> values;
  for (const auto& batch : batches) {
    if (values.size() >= limit) break;
    append_integers(*batch->column(column), limit, values);
  }
  return values;
}

std::vector<std::string> choose_column_encodings(parquet::WriterProperties::Builder& properties,
                                                 const arrow::Schema& schema,
                                                 const std::vector<std::shared_ptr<arrow::RecordBatch>>& first_rows,
                                                 std::int64_t dictionary_page_bytes) {
  std::vector<std::string> chosen(static_cast<std::size_t>(schema.num_fields()));
  for (int c = 0; c < schema.num_fields(); ++c) {
    const int bytes = integer_storage_bytes(*schema.field(c)->type());
    // Parquet's settings go by a column's name: a name two columns share
    // (possible in a table handed over from Python) keeps the defaults.
    if (bytes == 0 || schema.GetAllFieldsByName(schema.field(c)->name()).size() > 1) continue;
    const std::vector<std::int64_t> sample = integer_sample(first_rows, c, kSampleValues);
    if (sample.size() < 2) continue;
    const ParquetValueEncoding choice = estimate_encodings(sample, bytes, dictionary_page_bytes).choice;
    chosen[static_cast<std::size_t>(c)] = to_string(choice);
    const auto path = std::make_shared<parquet::schema::ColumnPath>(std::vector<std::string>{schema.field(c)->name()});
    if (choice == ParquetValueEncoding::dictionary) continue;
    properties.disable_dictionary(path);
    if (choice == ParquetValueEncoding::delta) {
      properties.encoding(path, parquet::Encoding::DELTA_BINARY_PACKED);
      properties.compression(path, parquet::Compression::UNCOMPRESSED);
    }
  }
  return chosen;
}

}  // namespace hpcdb
