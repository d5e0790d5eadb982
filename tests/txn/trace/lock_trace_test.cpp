#include "hpcdb/txn/trace/lock_trace.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "hpcdb/core/error.hpp"
#include "hpcdb/txn/trace/trace_lock_ids.hpp"

namespace hpcdb {
namespace {

class LockTraceFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/hpcdb_lock_trace_test_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write_text(const std::string& name, const std::string& content) const {
    const std::string p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }

  std::filesystem::path dir_;
};

TEST_F(LockTraceFiles, WritesAndReadsTheArtifactFormat) {
  const std::vector<TraceTransaction> written{{1, "neword", {{7, LockMode::IX}, {8, LockMode::X}}},
                                              {2, "slev", {{7, LockMode::IS}}},
                                              {3, "payment", {{9, LockMode::SIX}, {7, LockMode::S}}}};
  const std::string path = trace_file_name(dir_.string(), 42);
  EXPECT_EQ(std::filesystem::path(path).filename(), "wh000042.csv");
  write_trace_file(path, written);
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "1,7,IX,neword");
  const auto read = read_trace_file(path);
  ASSERT_EQ(read.size(), written.size());
  for (std::size_t t = 0; t < read.size(); ++t) {
    EXPECT_EQ(read[t].number, written[t].number);
    EXPECT_EQ(read[t].name, written[t].name);
    ASSERT_EQ(read[t].locks.size(), written[t].locks.size());
    for (std::size_t l = 0; l < read[t].locks.size(); ++l) {
      EXPECT_EQ(read[t].locks[l].lock, written[t].locks[l].lock);
      EXPECT_EQ(read[t].locks[l].mode, written[t].locks[l].mode);
    }
  }
}

TEST_F(LockTraceFiles, SkipsAHeaderAndCarriageReturns) {
  const auto read = read_trace_file(write_text("wh000001.csv", "trx_num,lock_id,mode,trx_name\r\n5,1,S,ordstat\r\n5,2,IS,ordstat\r\n"));
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].number, 5u);
  EXPECT_EQ(read[0].locks.size(), 2u);
  EXPECT_EQ(read[0].name, "ordstat");
}

TEST_F(LockTraceFiles, RefusesMalformedLinesNamingFileAndLine) {
  for (const char* bad : {"1,2,XX,neword\n", "1,2,S\n", "1,2,S,neword,extra\n", "x,2,S,neword\n", "1,-2,S,neword\n",
                          "1,2,NL,neword\n", "1,2,S,\n"}) {
    const std::string path = write_text("wh000001.csv", std::string("1,1,IS,neword\n") + bad);
    try {
      read_trace_file(path);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("wh000001.csv:2: not a lock trace line"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(read_trace_file((dir_ / "wh000009.csv").string()), UsageError);
}

TEST_F(LockTraceFiles, CountsConsecutiveFilesOnly) {
  EXPECT_THROW(count_trace_files((dir_ / "none").string()), UsageError);
  EXPECT_THROW(count_trace_files(dir_.string()), UsageError);  // empty
  write_text("wh000001.csv", "");
  write_text("wh000002.csv", "");
  write_text("notes.txt", "");
  EXPECT_EQ(count_trace_files(dir_.string()), 2u);
  write_text("wh000004.csv", "");
  EXPECT_THROW(count_trace_files(dir_.string()), UsageError);  // wh000003.csv missing
}

TEST_F(LockTraceFiles, LocksPerWarehouseFile) {
  EXPECT_THROW(read_locks_per_warehouse(dir_.string()), UsageError);  // missing
  write_locks_per_warehouse(dir_.string(), 1234);
  EXPECT_EQ(read_locks_per_warehouse(dir_.string()), 1234u);
  write_text("max-locks-per-wh.meta", "   977 wh0001-locks-meta.json\n");  // as the artifact's scripts read it
  EXPECT_EQ(read_locks_per_warehouse(dir_.string()), 977u);
  for (const char* bad : {"", "0\n", "none\n", "99999999999999999999\n"}) {
    write_text("max-locks-per-wh.meta", bad);
    EXPECT_THROW(read_locks_per_warehouse(dir_.string()), UsageError) << bad;
  }
}

// Three warehouses of one lock agent (its hierarchy copies live in partition 0).
TEST(TraceLockIds, NumbersEachWarehouseDenselyAndCopiesHierarchyLocksPerWarehouse) {
  const LockSpace space(3, {0});
  const LockId db = space.database_lock(0);
  const LockId stock_table = space.table_lock(9, 0);
  const auto stock = [](std::uint32_t w, std::uint64_t i) { return LockSpace::key_lock(9, w, i); };
  std::vector<std::vector<TraceTransaction>> files(3);
  // Warehouse 2's New-Order with a remote stock line of warehouse 3, then warehouse 1's Payment.
  files[1].push_back({1, "neword", {{db, LockMode::IX}, {stock_table, LockMode::IX},
                                    {LockSpace::partition_lock(9, 1), LockMode::IX}, {stock(1, 5), LockMode::X},
                                    {LockSpace::partition_lock(9, 2), LockMode::IX}, {stock(2, 5), LockMode::X}}});
  files[0].push_back({1, "payment", {{db, LockMode::IX}, {stock_table, LockMode::IX}, {stock(0, 5), LockMode::X},
                                     {stock(0, 6), LockMode::X}}});
  files[0].push_back({2, "payment", {{db, LockMode::IS}, {stock(0, 6), LockMode::S}}});
  const std::uint64_t per_warehouse = to_trace_lock_ids(files);
  // Warehouse 1 has 4 locks (its copies of db and stock table, two stock rows),
  // warehouse 2 the same 4, warehouse 3 two (its (stock, w) lock and row).
  EXPECT_EQ(per_warehouse, 4u);
  const auto ids = [](const TraceTransaction& t) {
    std::vector<LockId> out;
    for (const TracedLock& l : t.locks) out.push_back(l.lock);
    return out;
  };
  EXPECT_EQ(ids(files[0][0]), (std::vector<LockId>{0, 1, 2, 3}));
  EXPECT_EQ(ids(files[0][1]), (std::vector<LockId>{0, 3}));
  EXPECT_EQ(ids(files[1][0]), (std::vector<LockId>{4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(files[1][0].locks[3].mode, LockMode::X);  // modes stay
  // Back in a run with 2 lock agents, each lock goes to its warehouse's agent.
  const LockSpace two(3, {0, 1});  // warehouses 1-2 at agent 0, 3 at agent 1
  std::map<LockId, int> owner;
  for (const auto& file : files)
    for (const TraceTransaction& t : file)
      for (const TracedLock& l : t.locks) owner[l.lock] = two.owner_of(from_trace_lock_id(l.lock, per_warehouse));
  EXPECT_EQ(owner[4], 0);
  EXPECT_EQ(owner[7], 0);
  EXPECT_EQ(owner[8], 1);
  EXPECT_EQ(owner[9], 1);
  std::set<LockId> distinct;
  for (LockId id = 0; id < 12; ++id) distinct.insert(from_trace_lock_id(id, per_warehouse));
  EXPECT_EQ(distinct.size(), 12u);
}

TEST(TraceLockIds, EmptyTracesNeedOneIdPerWarehouse) {
  std::vector<std::vector<TraceTransaction>> files(2);
  EXPECT_EQ(to_trace_lock_ids(files), 1u);
}

}  // namespace
}  // namespace hpcdb
