#include "hpcdb/table/column_types.hpp"

#include <arrow/api.h>
#include <gtest/gtest.h>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

TEST(ParseTypeName, SimpleTimestampAndDecimalNames) {
  EXPECT_TRUE(parse_type_name("int64", "t")->Equals(*arrow::int64()));
  EXPECT_TRUE(parse_type_name("large_string", "t")->Equals(*arrow::large_utf8()));
  EXPECT_TRUE(parse_type_name("timestamp[ms]", "t")->Equals(*arrow::timestamp(arrow::TimeUnit::MILLI)));
  EXPECT_TRUE(parse_type_name("timestamp[ns]", "t")->Equals(*arrow::timestamp(arrow::TimeUnit::NANO)));
  EXPECT_TRUE(parse_type_name("decimal128(15,2)", "t")->Equals(*arrow::decimal128(15, 2)));
  EXPECT_TRUE(parse_type_name("decimal128(38, 0)", "t")->Equals(*arrow::decimal128(38, 0)));
  EXPECT_TRUE(parse_type_name("decimal128(1,1)", "t")->Equals(*arrow::decimal128(1, 1)));
}

TEST(ParseTypeName, RefusesWhatIsNotAType) {
  for (const char* name : {"", "int", "timestamp[m]", "timestamp[ms", "timestamp[]", "decimal128(39,2)",
                           "decimal128(5,6)", "decimal128(0,0)", "decimal128(15)", "decimal128(,2)", "decimal128( 5,2)",
                           "decimal128(5,2", "decimal128(123,2)", "decimal128(5,-1)", "decimal128(5,2)x"}) {
    EXPECT_THROW(parse_type_name(name, "--left-types"), UsageError) << name;
  }
}

}  // namespace
}  // namespace hpcdb
