#include "hpcdb/core/units.hpp"

#include <gtest/gtest.h>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

TEST(Units, CountsWithDecimalAndBinarySuffixes) {
  EXPECT_EQ(parse_count("0", "x"), 0u);
  EXPECT_EQ(parse_count("32M", "x"), 32000000u);
  EXPECT_EQ(parse_count("16Mi", "x"), 16u << 20);
  EXPECT_EQ(parse_count("2K", "x"), 2000u);
  EXPECT_EQ(parse_count("1Gi", "x"), 1u << 30);
  EXPECT_EQ(parse_bytes("64KiB", "x"), 65536u);
}

TEST(Units, GroupsDigitsByThousands) {
  EXPECT_EQ(format_grouped(0), "0");
  EXPECT_EQ(format_grouped(999), "999");
  EXPECT_EQ(format_grouped(1000), "1,000");
  EXPECT_EQ(format_grouped(67108864), "67,108,864");
}

TEST(Units, RejectsGarbage) {
  EXPECT_THROW(parse_count("", "x"), UsageError);
  EXPECT_THROW(parse_count("12Q", "x"), UsageError);
  EXPECT_THROW(parse_count("-5", "x"), UsageError);
  EXPECT_THROW(parse_count("1.5M", "x"), UsageError);
  EXPECT_THROW(parse_count("99999999999999999999", "x"), UsageError);
  EXPECT_THROW(parse_count("20000000Ti", "x"), UsageError);
}

}  // namespace
}  // namespace hpcdb
