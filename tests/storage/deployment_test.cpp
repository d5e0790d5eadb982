#include "hpcdb/storage/deployment.hpp"

#include <gtest/gtest.h>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

const std::vector<std::string> kTables = {"lineorder", "customer", "supplier", "part", "date"};

TEST(Deployment, RanksAndRoles) {
  const Deployment d(DeploymentMode::decoupled, 4, 1);
  EXPECT_EQ(d.query_engines(), 3);
  EXPECT_TRUE(d.runs_storage(0));
  EXPECT_FALSE(d.runs_query(0));
  EXPECT_EQ(d.query_rank(0), 1);
  EXPECT_EQ(d.engine_of_rank(3), 2);
  const Deployment l(DeploymentMode::local, 3, 3);
  EXPECT_EQ(l.query_engines(), 3);
  EXPECT_TRUE(l.runs_storage(2) && l.runs_query(2));
  EXPECT_THROW(Deployment(DeploymentMode::decoupled, 1, 1), UsageError);
  EXPECT_THROW(Deployment(DeploymentMode::decoupled, 2, 2), UsageError);
  EXPECT_THROW(Deployment(DeploymentMode::local, 2, 1), UsageError);
  EXPECT_THROW(parse_deployment("both"), UsageError);
}

TEST(Placement, StandardAndParsed) {
  const Placement s = Placement::standard(5, 2);
  EXPECT_EQ(s.engines_of(0), (std::vector<int>{0, 1}));
  EXPECT_EQ(s.engines_of(1), (std::vector<int>{0}));
  EXPECT_EQ(s.engines_of(2), (std::vector<int>{1}));
  EXPECT_EQ(s.fragment_on(0, 1), 1);
  EXPECT_EQ(s.fragment_on(1, 1), -1);
  const Placement p = Placement::parse("lineorder=1;part=0,1", kTables, 2);
  EXPECT_EQ(p.engines_of(0), (std::vector<int>{1}));
  EXPECT_EQ(p.engines_of(3), (std::vector<int>{0, 1}));
  EXPECT_EQ(p.describe(kTables), "lineorder=1;customer=0;supplier=1;part=0,1;date=1");
  EXPECT_THROW(Placement::parse("orders=0", kTables, 2), UsageError);
  EXPECT_THROW(Placement::parse("part=2", kTables, 2), UsageError);
  EXPECT_THROW(Placement::parse("part=0,0", kTables, 2), UsageError);
  EXPECT_THROW(Placement::parse("part", kTables, 2), UsageError);
  EXPECT_THROW(Placement::parse("part=x", kTables, 2), UsageError);
  EXPECT_THROW(Placement::parse("part=", kTables, 2), UsageError);
}

TEST(Placement, FragmentsCoverTheKeysOnce) {
  for (std::int64_t keys : {0, 1, 7, 1000, 1500001}) {
    for (int n = 1; n <= 5; ++n) {
      std::int64_t next = 0;
      for (int f = 0; f < n; ++f) {
        const FragmentKeys r = fragment_keys(keys, f, n);
        EXPECT_EQ(r.first, next);
        EXPECT_GE(r.end, r.first);
        next = r.end;
      }
      EXPECT_EQ(next, keys);
    }
  }
}

}  // namespace
}  // namespace hpcdb
