#include "hpcdb/table/parquet_encodings.hpp"

#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <gtest/gtest.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/writer.h>
#include <parquet/metadata.h>

#include <algorithm>
#include <random>

#include "hpcdb/table/column_take.hpp"

namespace hpcdb {
namespace {

constexpr std::int64_t kDictionaryPage = std::int64_t{64} << 10;

std::vector<std::int64_t> ascending(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<std::int64_t> values(n);
  std::int64_t v = 1;
  for (auto& x : values) x = v += static_cast<std::int64_t>(random() % 8);  // steps 0-7
  return values;
}

std::vector<std::int64_t> uniform(std::size_t n, std::int64_t low, std::int64_t high, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::int64_t> pick(low, high);
  std::vector<std::int64_t> values(n);
  for (auto& x : values) x = pick(random);
  return values;
}

// Each of many random values repeated `run` times in a row (an order's
// customer beside each of its lines).
std::vector<std::int64_t> runs(std::size_t n, std::size_t run, std::uint64_t seed) {
  std::vector<std::int64_t> values = uniform(n / run + 1, 1, 1'500'000, seed);
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; out.size() < n; ++i) out.insert(out.end(), run, values[i]);
  out.resize(n);
  return out;
}

TEST(ParquetEncodings, EachShapeGetsTheSmallestEncoding) {
  constexpr std::size_t n = 1 << 16;
  const EncodingEstimate sorted = estimate_encodings(ascending(n, 1), 8, kDictionaryPage);
  EXPECT_EQ(sorted.choice, ParquetValueEncoding::delta);
  EXPECT_LT(sorted.delta, n);  // 3 bits a value and the blocks' headers
  EXPECT_EQ(sorted.dictionary, UINT64_MAX);

  const EncodingEstimate few = estimate_encodings(uniform(n, 1, 50, 2), 8, kDictionaryPage);
  EXPECT_EQ(few.choice, ParquetValueEncoding::dictionary);
  EXPECT_EQ(few.dictionary, 50 * 8 + n * 6 / 8);

  const EncodingEstimate wide = estimate_encodings(uniform(n, INT64_MIN, INT64_MAX, 3), 8, kDictionaryPage);
  EXPECT_EQ(wide.choice, ParquetValueEncoding::plain);
  EXPECT_EQ(wide.dictionary, UINT64_MAX);

  const EncodingEstimate repeated = estimate_encodings(runs(n, 4, 4), 8, kDictionaryPage);
  EXPECT_EQ(repeated.choice, ParquetValueEncoding::plain);
  EXPECT_LT(repeated.plain, repeated.delta);

  // A dictionary page holds 16Ki 4-byte values, 8Ki 8-byte ones.
  const std::vector<std::int64_t> thousands = uniform(n, 0, 11'999, 5);
  EXPECT_NE(estimate_encodings(thousands, 4, kDictionaryPage).dictionary, UINT64_MAX);
  EXPECT_EQ(estimate_encodings(thousands, 8, kDictionaryPage).dictionary, UINT64_MAX);
}

TEST(ParquetEncodings, DeltaEstimateOfWrappingAndTinySamples) {
  EXPECT_EQ(estimate_encodings(std::vector<std::int64_t>{}, 8, kDictionaryPage).delta, 0u);
  EXPECT_EQ(estimate_encodings(std::vector<std::int64_t>{7}, 8, kDictionaryPage).delta, 10u);
  // 0 and INT64_MAX alternating: differences of -MAX and MAX, 64 bits
  // apart (a miniblock of 32: 256 bytes; the least, 10 bytes as a varint).
  std::vector<std::int64_t> apart, extremes;
  for (int i = 0; i < 33; ++i) apart.push_back(i % 2 ? INT64_MAX : 0);
  const EncodingEstimate e = estimate_encodings(apart, 8, kDictionaryPage);
  EXPECT_EQ(e.delta, 10u + 4 + 256);
  EXPECT_EQ(e.choice, ParquetValueEncoding::dictionary);
  // Differences wrap as Parquet's do: between INT64_MIN and INT64_MAX they
  // are 1 and -1 (2 bits apart: 8 bytes a miniblock, the least 1 byte).
  for (int i = 0; i < 33; ++i) extremes.push_back(i % 2 ? INT64_MAX : INT64_MIN);
  EXPECT_EQ(estimate_encodings(extremes, 8, kDictionaryPage).delta, 1u + 4 + 8);
  // 4-byte values wrap at 32 bits: INT32_MIN and INT32_MAX are 1 apart
  // there, 2^32 - 1 apart as 64-bit values (33 bits a difference).
  std::vector<std::int64_t> extremes32;
  for (int i = 0; i < 33; ++i) extremes32.push_back(i % 2 ? INT32_MAX : INT32_MIN);
  EXPECT_EQ(estimate_encodings(extremes32, 4, kDictionaryPage).delta, 1u + 4 + 8);
  EXPECT_EQ(estimate_encodings(extremes32, 8, kDictionaryPage).delta, 5u + 4 + 32 * 33 / 8);
}

TEST(ParquetEncodings, SampleSkipsNullsAcrossBatchesUpToTheLimit) {
  arrow::UInt64Builder a;
  ASSERT_TRUE(a.AppendValues({1, 2}).ok());
  ASSERT_TRUE(a.AppendNull().ok());
  ASSERT_TRUE(a.Append(UINT64_MAX).ok());
  arrow::UInt64Builder b;
  ASSERT_TRUE(b.AppendValues({5, 6, 7}).ok());
  const auto schema = arrow::schema({arrow::field("u", arrow::uint64())});
  const std::vector<std::shared_ptr<arrow::RecordBatch>> batches{
      arrow::RecordBatch::Make(schema, 4, {a.Finish().ValueOrDie()}),
      arrow::RecordBatch::Make(schema, 3, {b.Finish().ValueOrDie()})};
  EXPECT_EQ(integer_sample(batches, 0, 100), (std::vector<std::int64_t>{1, 2, -1, 5, 6, 7}));
  EXPECT_EQ(integer_sample(batches, 0, 4), (std::vector<std::int64_t>{1, 2, -1, 5}));
  EXPECT_EQ(integer_storage_bytes(*arrow::uint64()), 8);
  EXPECT_EQ(integer_storage_bytes(*arrow::int8()), 4);
  EXPECT_EQ(integer_storage_bytes(*arrow::decimal128(18, 2)), 8);
  EXPECT_EQ(integer_storage_bytes(*arrow::decimal128(9, 2)), 4);
  EXPECT_EQ(integer_storage_bytes(*arrow::decimal128(19, 2)), 0);
  EXPECT_EQ(integer_storage_bytes(*arrow::decimal64(9, 2)), 4);
  EXPECT_EQ(integer_storage_bytes(*arrow::decimal64(10, 2)), 8);
  EXPECT_EQ(integer_storage_bytes(*arrow::float64()), 0);
  EXPECT_EQ(integer_storage_bytes(*arrow::utf8()), 0);
}

// Seconds are sampled as the milliseconds Parquet stores them in.
TEST(ParquetEncodings, SecondsAreSampledAsMilliseconds) {
  arrow::TimestampBuilder seconds(arrow::timestamp(arrow::TimeUnit::SECOND), arrow::default_memory_pool());
  ASSERT_TRUE(seconds.AppendValues({1, -2, 3}).ok());
  arrow::TimestampBuilder micros(arrow::timestamp(arrow::TimeUnit::MICRO), arrow::default_memory_pool());
  ASSERT_TRUE(micros.AppendValues({1, -2, 3}).ok());
  const auto batch = [](const std::shared_ptr<arrow::Array>& a) {
    return arrow::RecordBatch::Make(arrow::schema({arrow::field("t", a->type())}), a->length(), {a});
  };
  EXPECT_EQ(integer_sample({batch(seconds.Finish().ValueOrDie())}, 0, 10), (std::vector<std::int64_t>{1000, -2000, 3000}));
  EXPECT_EQ(integer_sample({batch(micros.Finish().ValueOrDie())}, 0, 10), (std::vector<std::int64_t>{1, -2, 3}));
}

// Parquet's settings go by name: columns sharing one keep the defaults.
TEST(ParquetEncodings, SharedNamesKeepTheDefaults) {
  arrow::Int64Builder a, b;
  const std::vector<std::int64_t> values = ascending(1000, 9);
  ASSERT_TRUE(a.AppendValues(values).ok());
  ASSERT_TRUE(b.AppendValues(values).ok());
  const auto schema = arrow::schema({arrow::field("x", arrow::int64()), arrow::field("x", arrow::int64()),
                                     arrow::field("y", arrow::int64())});
  const auto x = a.Finish().ValueOrDie();
  const auto batch = arrow::RecordBatch::Make(schema, 1000, {x, b.Finish().ValueOrDie(), x});
  parquet::WriterProperties::Builder properties;
  EXPECT_EQ(choose_column_encodings(properties, *schema, {batch}, kDictionaryPage),
            (std::vector<std::string>{"", "", "delta"}));
}

template <class Builder, class Value>
std::shared_ptr<arrow::Array> array_of(Builder builder, const std::vector<Value>& values, bool with_nulls) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (with_nulls && i % 97 == 5) {
      EXPECT_TRUE(builder.AppendNull().ok());
    } else {
      EXPECT_TRUE(builder.Append(values[i]).ok());
    }
  }
  return builder.Finish().ValueOrDie();
}

std::shared_ptr<arrow::Array> as_type(const std::shared_ptr<arrow::Array>& values,
                                      const std::shared_ptr<arrow::DataType>& type) {
  return cast_array(values, type, "test");
}

// The same bits as a type of their width (integers as decimals).
std::shared_ptr<arrow::Array> viewed(const std::shared_ptr<arrow::Array>& values,
                                     const std::shared_ptr<arrow::DataType>& type) {
  return values->View(type).ValueOrDie();
}

// Written with the chosen encodings and read back: every value and null
// as written, each column in the encoding chosen for it.
TEST(ParquetEncodings, ChosenEncodingsAreWrittenAndReadBack) {
  constexpr std::size_t n = 50'000;
  const auto sorted = array_of(arrow::Int64Builder(), ascending(n, 6), true);
  const auto few = array_of(arrow::Int64Builder(), uniform(n, 0, 40, 7), true);
  const auto repeated = array_of(arrow::Int64Builder(), runs(n, 4, 8), false);
  std::vector<std::string> words;
  for (std::size_t i = 0; i < n; ++i) words.push_back(i % 3 ? "low" : "urgent");
  const auto fields = arrow::FieldVector{
      arrow::field("sorted", arrow::int64()),          arrow::field("few", arrow::int8()),
      arrow::field("repeated", arrow::int64(), false), arrow::field("day", arrow::date32()),
      arrow::field("price", arrow::decimal64(15, 2)),  arrow::field("big", arrow::decimal128(18, 2)),
      arrow::field("small", arrow::decimal32(9, 0)),   arrow::field("ts", arrow::timestamp(arrow::TimeUnit::MICRO)),
      arrow::field("unsigned", arrow::uint32()),       arrow::field("word", arrow::utf8(), false)};
  const auto schema = arrow::schema(fields);
  const auto table = arrow::RecordBatch::Make(
      schema, static_cast<std::int64_t>(n),
      {sorted, as_type(few, arrow::int8()), repeated, as_type(as_type(sorted, arrow::int32()), arrow::date32()),
       viewed(sorted, arrow::decimal64(15, 2)),
       as_type(viewed(repeated, arrow::decimal64(18, 2)), arrow::decimal128(18, 2)),
       viewed(as_type(few, arrow::int32()), arrow::decimal32(9, 0)), as_type(sorted, arrow::timestamp(arrow::TimeUnit::MICRO)),
       as_type(few, arrow::uint32()), array_of(arrow::StringBuilder(), words, false)});
  ASSERT_TRUE(table->ValidateFull().ok());

  parquet::WriterProperties::Builder properties;
  properties.compression(parquet::Compression::SNAPPY);
  properties.enable_store_decimal_as_integer();
  properties.dictionary_pagesize_limit(kDictionaryPage);
  const std::vector<std::string> chosen = choose_column_encodings(properties, *schema, {table}, kDictionaryPage);
  EXPECT_EQ(chosen, (std::vector<std::string>{"delta", "dictionary", "plain", "delta", "delta", "plain", "dictionary",
                                              "delta", "dictionary", ""}));

  auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
  ASSERT_TRUE(parquet::arrow::WriteTable(*arrow::Table::FromRecordBatches({table}).ValueOrDie(),
                                         arrow::default_memory_pool(), sink, 1 << 20, properties.build())
                  .ok());
  const auto file = std::make_shared<arrow::io::BufferReader>(sink->Finish().ValueOrDie());
  std::unique_ptr<parquet::arrow::FileReader> reader =
      parquet::arrow::OpenFile(file, arrow::default_memory_pool()).ValueOrDie();
  const auto group = reader->parquet_reader()->metadata()->RowGroup(0);
  for (int c = 0; c < schema->num_fields(); ++c) {
    const auto encodings = group->ColumnChunk(c)->encodings();
    const bool delta = std::ranges::count(encodings, parquet::Encoding::DELTA_BINARY_PACKED) > 0;
    const bool dictionary = std::ranges::count(encodings, parquet::Encoding::RLE_DICTIONARY) > 0;
    const std::string& want = chosen[static_cast<std::size_t>(c)];
    EXPECT_EQ(delta, want == "delta") << schema->field(c)->name();
    EXPECT_EQ(dictionary, want == "dictionary" || want.empty()) << schema->field(c)->name();
    EXPECT_EQ(group->ColumnChunk(c)->compression() == parquet::Compression::UNCOMPRESSED, want == "delta")
        << schema->field(c)->name();
  }
  const std::shared_ptr<arrow::Table> back = reader->ReadTable().ValueOrDie();
  for (int c = 0; c < schema->num_fields(); ++c) {
    const auto read = back->column(c)->chunk(0);
    // Decimals of up to 18 digits come back as decimal128.
    const auto same_type = cast_array(read, schema->field(c)->type(), "test");
    EXPECT_TRUE(same_type->Equals(*table->column(c))) << schema->field(c)->name();
  }
}

}  // namespace
}  // namespace hpcdb
