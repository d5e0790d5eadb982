#include "hpcdb/join/tables/table_join_spec.hpp"

#include <arrow/api.h>
#include <gtest/gtest.h>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

std::shared_ptr<arrow::Schema> left_schema() {
  return arrow::schema({arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8()),
                        arrow::field("price", arrow::float64())});
}
std::shared_ptr<arrow::Schema> right_schema() {
  return arrow::schema({arrow::field("id", arrow::int32()), arrow::field("name", arrow::large_utf8()),
                        arrow::field("qty", arrow::uint16())});
}

std::vector<std::string> names(const TableJoinSpec& spec) {
  std::vector<std::string> out;
  for (const ResultColumn& c : spec.columns) out.push_back(c.name);
  return out;
}

TEST(TableJoinSpec, SelectStarSuffixesNamesBothSidesHave) {
  const TableJoinSpec spec = resolve_join_spec(*left_schema(), *right_schema(), parse_join_keys("id"), JoinHow::inner, {});
  EXPECT_EQ(names(spec), (std::vector<std::string>{"id_l", "name_l", "price", "id_r", "name_r", "qty"}));
  EXPECT_EQ(spec.left_keys, std::vector<std::string>{"id"});
  EXPECT_EQ(spec.right_reads, (std::vector<std::string>{"id", "name", "qty"}));
}

TEST(TableJoinSpec, SemiAndAntiGiveTheLeftColumnsUnsuffixed) {
  const TableJoinSpec spec = resolve_join_spec(*left_schema(), *right_schema(), parse_join_keys("id=id"), JoinHow::anti, {});
  EXPECT_EQ(names(spec), (std::vector<std::string>{"id", "name", "price"}));
  EXPECT_EQ(spec.right_reads, std::vector<std::string>{"id"});
}

TEST(TableJoinSpec, ColumnsPickResultNamesAndReadOnlyWhatIsNeeded) {
  const TableJoinSpec spec = resolve_join_spec(*left_schema(), *right_schema(), parse_join_keys("name=name"), JoinHow::left,
                                               {"qty", "price"}, {"_a", "_b"});
  EXPECT_EQ(names(spec), (std::vector<std::string>{"qty", "price"}));
  EXPECT_EQ(spec.left_reads, (std::vector<std::string>{"price", "name"}));
  EXPECT_EQ(spec.right_reads, (std::vector<std::string>{"qty", "name"}));
}

TEST(TableJoinSpec, BadKeysAndColumnsAreRefused) {
  EXPECT_THROW(resolve_join_spec(*left_schema(), *right_schema(), parse_join_keys("nope=id"), JoinHow::inner, {}), UsageError);
  EXPECT_THROW(resolve_join_spec(*left_schema(), *right_schema(), parse_join_keys("id=name"), JoinHow::inner, {}), UsageError);
  EXPECT_THROW(resolve_join_spec(*left_schema(), *right_schema(), parse_join_keys("price=qty"), JoinHow::inner, {}), UsageError);
  EXPECT_THROW(resolve_join_spec(*left_schema(), *right_schema(), parse_join_keys("id"), JoinHow::inner, {"id"}), UsageError);
  EXPECT_THROW(resolve_join_spec(*left_schema(), *right_schema(), parse_join_keys("id"), JoinHow::inner, {"qty", "qty"}), UsageError);
  EXPECT_THROW(parse_join_keys("a=,b"), UsageError);
  EXPECT_THROW(parse_join_keys(""), UsageError);
  EXPECT_THROW(parse_join_how("outer"), UsageError);
}

TEST(TableJoinSpec, CompositeKeysPairInOrder) {
  const JoinKeys keys = parse_join_keys("id=id,name");
  ASSERT_EQ(keys.on.size(), 2u);
  EXPECT_EQ(keys.on[1], (std::pair<std::string, std::string>{"name", "name"}));
}

}  // namespace
}  // namespace hpcdb
