#include "hpcdb/storage/kv_store.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

ColumnTable orders(std::size_t n) {
  ColumnTable t({"o", {{"key", ColumnType::i32, 0}, {"line", ColumnType::u8, 0}, {"qty", ColumnType::u8, 0},
                       {"note", ColumnType::text, 4}}});
  t.add_rows(n);
  for (std::size_t r = 0; r < n; ++r) {
    t.set_value(r, 0, static_cast<std::int64_t>(r / 3 + 1));
    t.set_value(r, 1, static_cast<std::int64_t>(r % 3 + 1));
    t.set_value(r, 2, static_cast<std::int64_t>(r % 50));
    t.set_text(r, 3, "ab");
  }
  return t;
}

TEST(KvStore, LooksUpByCompositeKey) {
  const ColumnTable t = orders(3000);
  const KvStore kv(t, {0, 1, 8});
  EXPECT_EQ(kv.rows(), 3000u);
  for (std::size_t r = 0; r < 3000; r += 7) {
    const auto row = kv.find((static_cast<std::int64_t>(r / 3) + 1) * 8 + static_cast<std::int64_t>(r % 3) + 1);
    ASSERT_TRUE(row);
    EXPECT_EQ(*row, r);
    std::int32_t key;
    std::memcpy(&key, kv.record(*row) + kv.record().offsets[0], 4);
    EXPECT_EQ(key, static_cast<std::int32_t>(r / 3 + 1));
  }
  EXPECT_FALSE(kv.find(0));
  EXPECT_FALSE(kv.find(1 * 8 + 4));
}

TEST(KvStore, UpdatesAreRecordedForTheScanCopy) {
  ColumnTable t = orders(30);
  std::vector<ColumnStats> ranges = column_stats(t);
  KvStore kv(t, {0, 1, 8});
  EXPECT_TRUE(kv.update(2 * 8 + 3, 2, 99));
  EXPECT_FALSE(kv.update(1000, 2, 1));
  EXPECT_THROW(kv.update(2 * 8 + 3, 0, 1), Error);  // a key column
  EXPECT_THROW(kv.update(2 * 8 + 3, 3, 1), Error);  // text
  const auto row = kv.find(2 * 8 + 3);
  EXPECT_EQ(static_cast<int>(kv.record(*row)[kv.record().offsets[2]]), 99);
  EXPECT_EQ(t.value(*row, 2), 5);  // the scan copy has not seen it yet
  const std::vector<RowUpdate> updates = kv.take_updates();
  ASSERT_EQ(updates.size(), 1u);
  apply_updates(t, ranges, updates);
  EXPECT_EQ(t.value(*row, 2), 99);
  EXPECT_EQ(ranges[2].range.max, 99);
  EXPECT_TRUE(kv.take_updates().empty());
}

TEST(KvStore, RefusesDuplicateKeys) {
  ColumnTable t = orders(6);
  t.set_value(1, 1, 1);  // rows 0 and 1 now share (1, 1)
  EXPECT_THROW(KvStore(t, {0, 1, 8}), Error);
  const ColumnTable empty = orders(0);
  const KvStore kv(empty, {0, -1, 1});
  EXPECT_FALSE(kv.find(1));
}

}  // namespace
}  // namespace hpcdb
