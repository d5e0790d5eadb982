#include "hpcdb/table/located_take.hpp"

#include <arrow/api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>

namespace hpcdb {
namespace {

using Strings = std::vector<std::optional<std::string>>;

template <class Builder>
std::shared_ptr<arrow::Array> strings_of(const Strings& values) {
  Builder builder;
  for (const auto& v : values) {
    if (v) EXPECT_TRUE(builder.Append(*v).ok());
    else EXPECT_TRUE(builder.AppendNull().ok());
  }
  return builder.Finish().ValueOrDie();
}

// Strings of 0 to 40 characters, a tenth of them null, each telling its
// batch and row apart.
Strings strings(std::mt19937& random, std::size_t count, int batch) {
  Strings values;
  for (std::size_t i = 0; i < count; ++i) {
    if (random() % 10 == 0) {
      values.emplace_back();
      continue;
    }
    std::string s = std::to_string(batch) + ":" + std::to_string(i) + ";";
    s.resize(random() % 41, static_cast<char>('a' + random() % 26));
    values.emplace_back(std::move(s));
  }
  return values;
}

// Takes rows of batches whose strings end right at their buffers' ends, of
// sliced batches (offsets not from 0), in a shuffled order with repeats, and
// compares each value with the batch it came from.
template <class Builder>
void expect_taken_strings(const std::shared_ptr<arrow::DataType>& type) {
  std::mt19937 random(11);
  DistributedTable table;
  table.schema = arrow::schema({arrow::field("s", type)});
  std::vector<Strings> values;
  for (int b = 0; b < 4; ++b) {
    values.push_back(strings(random, 300, b));
    // The last string of the buffer is short: a 16-byte copy would read past it.
    values.back().back() = "z" + std::to_string(b);
    std::shared_ptr<arrow::Array> array = strings_of<Builder>(values.back());
    if (b % 2 == 1) {  // a slice: its offsets start past its values' first byte
      array = array->Slice(7, 250);
      values.back() = Strings(values.back().begin() + 7, values.back().begin() + 257);
    }
    table.batches.push_back(arrow::RecordBatch::Make(table.schema, array->length(), {array}));
  }
  std::vector<RowLocation> rows;
  for (std::uint32_t b = 0; b < values.size(); ++b) {
    for (std::uint32_t r = 0; r < values[b].size(); ++r) rows.push_back({b, r});
  }
  rows.push_back({0, 299});
  rows.push_back({3, 249});
  std::shuffle(rows.begin(), rows.end(), random);
  rows.push_back({2, 299});  // the last strings last: no room after them but the buffer's padding
  rows.push_back({0, 299});

  TakeScratch scratch;
  const ShareColumn column(table, 0);
  const auto taken = take_located(column, rows, scratch);
  ASSERT_EQ(taken->type()->id(), type->id());
  ASSERT_EQ(taken->length(), static_cast<std::int64_t>(rows.size()));
  ASSERT_TRUE(taken->ValidateFull().ok());
  const Strings want = [&] {
    Strings w;
    for (const RowLocation& r : rows) w.push_back(values[r.batch][r.row]);
    return w;
  }();
  const auto& got = static_cast<const typename arrow::TypeTraits<typename Builder::TypeClass>::ArrayType&>(*taken);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(got.IsValid(static_cast<std::int64_t>(i)), want[i].has_value()) << "row " << i;
    if (want[i]) {
      EXPECT_EQ(got.GetString(static_cast<std::int64_t>(i)), *want[i]) << "row " << i;
    }
  }
}

TEST(LocatedTake, StringsOfEveryLengthFromSlicesAndBufferEnds) {
  expect_taken_strings<arrow::StringBuilder>(arrow::utf8());
}

TEST(LocatedTake, LargeStringsLikewise) {
  expect_taken_strings<arrow::LargeStringBuilder>(arrow::large_utf8());
}

TEST(LocatedTake, OneShortStringWithoutRoomToSpare) {
  // A single 3-byte string: its source buffer and the result's hold less
  // than 16 bytes of it, so it is copied as its own bytes.
  DistributedTable table;
  table.schema = arrow::schema({arrow::field("s", arrow::utf8())});
  const auto array = strings_of<arrow::StringBuilder>({"abc"});
  table.batches.push_back(arrow::RecordBatch::Make(table.schema, 1, {array}));
  TakeScratch scratch;
  const auto taken = take_located(ShareColumn(table, 0), std::vector<RowLocation>{{0, 0}, {0, 0}}, scratch);
  ASSERT_TRUE(taken->ValidateFull().ok());
  EXPECT_EQ(static_cast<const arrow::StringArray&>(*taken).GetString(0), "abc");
  EXPECT_EQ(static_cast<const arrow::StringArray&>(*taken).GetString(1), "abc");
}

}  // namespace
}  // namespace hpcdb
