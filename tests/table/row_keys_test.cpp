#include "hpcdb/table/row_keys.hpp"

#include <arrow/api.h>
#include <gtest/gtest.h>

#include "hpcdb/table/key_hash.hpp"

namespace hpcdb {
namespace {

template <class Builder, class T>
std::shared_ptr<arrow::Array> build(const std::vector<std::optional<T>>& values) {
  Builder builder;
  for (const auto& v : values) {
    if (v) EXPECT_TRUE(builder.Append(*v).ok());
    else EXPECT_TRUE(builder.AppendNull().ok());
  }
  return builder.Finish().ValueOrDie();
}

DistributedTable table_of(const std::vector<std::pair<std::string, std::shared_ptr<arrow::Array>>>& columns) {
  arrow::FieldVector fields;
  arrow::ArrayVector arrays;
  for (const auto& [name, array] : columns) {
    fields.push_back(arrow::field(name, array->type()));
    arrays.push_back(array);
  }
  DistributedTable table;
  table.schema = arrow::schema(fields);
  table.batches.push_back(arrow::RecordBatch::Make(table.schema, arrays.front()->length(), arrays));
  return table;
}

TEST(RowKeys, DirectIntegersKeepTheirValueAndNullsHaveNoKey) {
  const auto table = table_of({{"k", build<arrow::Int32Builder, std::int32_t>({5, std::nullopt, -3})}});
  const RowKeys keys = row_keys(table, {0}, KeyEncoding::direct);
  EXPECT_EQ(keys.keys[0], 5u);
  EXPECT_EQ(keys.keys[2], static_cast<std::uint64_t>(std::int64_t{-3}));
  EXPECT_EQ(keys.valid, (std::vector<std::uint8_t>{1, 0, 1}));
  EXPECT_EQ(keys.nulls, 1u);
}

TEST(RowKeys, EqualValuesHashEquallyAcrossWidthsAndStringKinds) {
  const auto narrow = table_of({{"k", build<arrow::Int16Builder, std::int16_t>({7, -1})},
                                {"s", build<arrow::StringBuilder, std::string>({"abc", "a longer string of bytes"})}});
  const auto wide = table_of({{"k", build<arrow::Int64Builder, std::int64_t>({7, -1})},
                              {"s", build<arrow::LargeStringBuilder, std::string>({"abc", "a longer string of bytes"})}});
  const RowKeys a = row_keys(narrow, {0, 1}, KeyEncoding::hashed);
  const RowKeys b = row_keys(wide, {0, 1}, KeyEncoding::hashed);
  EXPECT_EQ(a.keys, b.keys);
  EXPECT_NE(a.keys[0], a.keys[1]);
}

TEST(RowKeys, ColumnOrderAndBytesMatter) {
  EXPECT_NE(hash_bytes(reinterpret_cast<const std::uint8_t*>("ab"), 2), hash_bytes(reinterpret_cast<const std::uint8_t*>("ba"), 2));
  EXPECT_NE(hash_bytes(reinterpret_cast<const std::uint8_t*>("a\0"), 2), hash_bytes(reinterpret_cast<const std::uint8_t*>("a"), 1));
  EXPECT_NE(combine_hashes(hash_integer(1), hash_integer(2)), combine_hashes(hash_integer(2), hash_integer(1)));
}

TEST(RowKeys, FewerHashBitsForceCollisions) {
  std::vector<std::optional<std::string>> values;
  for (int i = 0; i < 64; ++i) values.emplace_back(std::to_string(i * 7919));  // distinct strings
  const auto table = table_of({{"s", build<arrow::StringBuilder, std::string>(values)}});
  const RowKeys keys = row_keys(table, {0}, KeyEncoding::hashed, 3);
  for (std::uint64_t k : keys.keys) EXPECT_LT(k, 8u);
}

TEST(RowKeys, EncodingFollowsTheKeyTypes) {
  EXPECT_EQ(key_encoding_for({arrow::int32()}), KeyEncoding::direct);
  EXPECT_EQ(key_encoding_for({arrow::date32()}), KeyEncoding::direct);
  EXPECT_EQ(key_encoding_for({arrow::utf8()}), KeyEncoding::hashed);
  EXPECT_EQ(key_encoding_for({arrow::int32(), arrow::int64()}), KeyEncoding::hashed);
}

}  // namespace
}  // namespace hpcdb
