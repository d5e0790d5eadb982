#include "hpcdb/table/decimal_narrowing.hpp"

#include <arrow/api.h>
#include <gtest/gtest.h>

#include "hpcdb/core/error.hpp"
#include "hpcdb/table/column_take.hpp"

namespace hpcdb {
namespace {

std::shared_ptr<arrow::Array> decimals(const std::vector<std::optional<arrow::Decimal128>>& values, int precision, int scale) {
  arrow::Decimal128Builder builder(arrow::decimal128(precision, scale));
  for (const auto& v : values) {
    if (v) {
      EXPECT_TRUE(builder.Append(*v).ok());
    } else {
      EXPECT_TRUE(builder.AppendNull().ok());
    }
  }
  return builder.Finish().ValueOrDie();
}

TEST(DecimalNarrowing, KeepsValuesSignsAndNulls) {
  const auto wide = decimals({arrow::Decimal128(12345), arrow::Decimal128(-999999999999999999), std::nullopt,
                              arrow::Decimal128(0), arrow::Decimal128(-1)},
                             18, 2);
  const auto type = arrow::decimal64(18, 2);
  ASSERT_TRUE(narrows_decimals(*wide, *type));
  const auto narrow = cast_array(wide, type, "test");
  ASSERT_TRUE(narrow->type()->Equals(*type));
  // The same values as Arrow's own cast gives, nulls included.
  const auto back = cast_array(narrow, arrow::decimal128(18, 2), "test");
  EXPECT_TRUE(back->Equals(*wide)) << back->ToString();
  EXPECT_EQ(narrow->null_count(), 1);
  const auto narrow32 = cast_array(decimals({arrow::Decimal128(-123456789), std::nullopt}, 9, 0), arrow::decimal32(9, 0), "t");
  EXPECT_EQ(narrow32->ToString(), cast_array(narrow32, arrow::decimal128(9, 0), "t")->ToString());
}

TEST(DecimalNarrowing, ValueWiderThanItsPrecisionIsAnError) {
  // A file may hold a value its precision does not allow: it must not be cut.
  const auto wide = decimals({arrow::Decimal128(1), arrow::Decimal128(1, 0)}, 18, 0);  // the second: 2^64
  EXPECT_THROW(cast_array(wide, arrow::decimal64(18, 0), "column 'x'"), Error);
  const auto too_wide_for_32 = decimals({arrow::Decimal128(std::int64_t{1} << 40)}, 9, 0);
  EXPECT_THROW(cast_array(too_wide_for_32, arrow::decimal32(9, 0), "column 'y'"), Error);
  // Fits in 64 bits, but has 19 digits: not a decimal64(18, 0).
  const auto nineteen_digits = decimals({arrow::Decimal128(std::int64_t{1000000000000000000})}, 18, 0);
  EXPECT_THROW(cast_array(nineteen_digits, arrow::decimal64(18, 0), "column 'z'"), Error);
  // 18 nines fit.
  const auto eighteen_nines = decimals({arrow::Decimal128(std::int64_t{999999999999999999})}, 18, 0);
  EXPECT_EQ(cast_array(eighteen_nines, arrow::decimal64(18, 0), "t")->length(), 1);
}

TEST(DecimalNarrowing, OnlyEqualScalesAndWholeArrays) {
  const auto wide = decimals({arrow::Decimal128(5), arrow::Decimal128(6)}, 10, 2);
  EXPECT_FALSE(narrows_decimals(*wide, *arrow::decimal64(10, 3)));
  EXPECT_FALSE(narrows_decimals(*wide->Slice(1), *arrow::decimal64(10, 2)));
  EXPECT_FALSE(narrows_decimals(*wide, *arrow::int64()));
  // A slice still converts, through Arrow's cast.
  EXPECT_EQ(cast_array(wide->Slice(1), arrow::decimal64(10, 2), "t")->ToString(),
            cast_array(wide, arrow::decimal64(10, 2), "t")->Slice(1)->ToString());
}

}  // namespace
}  // namespace hpcdb
