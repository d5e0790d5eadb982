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

// A string column over buffers of exactly its offsets and bytes (no
// padding: a read past the last string is outside the allocation, which
// AddressSanitizer reports), one of them a slice of a larger buffer.
struct ExactStrings {
  std::vector<std::int32_t> offsets;
  std::vector<std::uint8_t> bytes;
  std::shared_ptr<arrow::Array> array(std::shared_ptr<arrow::Buffer> data = nullptr) const {
    auto offset_buffer = std::make_shared<arrow::Buffer>(reinterpret_cast<const std::uint8_t*>(offsets.data()),
                                                         static_cast<std::int64_t>(offsets.size() * 4));
    if (!data) data = std::make_shared<arrow::Buffer>(bytes.data(), static_cast<std::int64_t>(bytes.size()));
    return arrow::MakeArray(arrow::ArrayData::Make(arrow::utf8(), static_cast<std::int64_t>(offsets.size() - 1),
                                                   {nullptr, offset_buffer, data}, 0));
  }
};

ExactStrings exact_strings(const std::vector<std::string>& values) {
  ExactStrings s{{0}, {}};
  for (const std::string& v : values) {
    s.bytes.insert(s.bytes.end(), v.begin(), v.end());
    s.offsets.push_back(static_cast<std::int32_t>(s.bytes.size()));
  }
  return s;
}

TEST(LocatedTake, GatheredBytesStayWithinTheSourcesAndTheRoomGiven) {
  const ExactStrings first = exact_strings({"a", "", "0123456789abcdef", "0123456789abcdefXYZ", "tail"});
  const ExactStrings second = exact_strings({"x", "yz"});
  // The second batch's bytes: a slice ending at its last string, of a buffer with more after it.
  std::vector<std::uint8_t> wider(second.bytes);
  wider.insert(wider.end(), 40, '!');
  const auto sliced = arrow::SliceBuffer(std::make_shared<arrow::Buffer>(wider.data(), static_cast<std::int64_t>(wider.size())),
                                         0, static_cast<std::int64_t>(second.bytes.size()));
  DistributedTable table;
  table.schema = arrow::schema({arrow::field("s", arrow::utf8(), false)});
  table.batches.push_back(arrow::RecordBatch::Make(table.schema, 5, {first.array()}));
  table.batches.push_back(arrow::RecordBatch::Make(table.schema, 2, {second.array(sliced)}));
  const std::vector<RowLocation> rows{{0, 4}, {1, 1}, {0, 0}, {0, 2}, {0, 1}, {0, 3}, {1, 0}, {0, 4}};
  const std::string want = "tailyza0123456789abcdef0123456789abcdefXYZxtail";
  const ShareColumn column(table, 0);

  constexpr std::size_t kCanary = 32;
  for (const std::size_t room : {std::size_t{0}, std::size_t{15}, std::size_t{16}}) {
    // `room` bytes past the strings may be written; the canary past them may not.
    std::vector<std::byte> out(want.size() + room + kCanary, std::byte{0xA5});
    column.gather_string_bytes(rows, out.data(), out.data() + want.size() + room);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(out.data()), want.size()), want) << "room " << room;
    for (std::size_t i = want.size() + room; i < out.size(); ++i) {
      ASSERT_EQ(out[i], std::byte{0xA5}) << "byte " << i << " past the room of " << room;
    }
  }
}

}  // namespace
}  // namespace hpcdb
