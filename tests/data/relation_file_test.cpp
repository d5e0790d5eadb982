#include "hpcdb/data/relation_file.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/worker_team.hpp"

namespace hpcdb {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

class RelationFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/hpcdb_relation_file_test_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::string write_text(const std::string& name, const std::string& content) const {
    const std::string p = path(name);
    std::ofstream out(p, std::ios::binary);
    out << content;
    return p;
  }

  static std::vector<Tuple> read_all(const std::string& p, unsigned parts) {
    std::vector<Tuple> all;
    for (unsigned part = 0; part < parts; ++part) {
      const auto tuples = read_relation_part(p, part, parts);
      all.insert(all.end(), tuples.begin(), tuples.end());
    }
    return all;
  }

  static std::vector<Tuple> sample_tuples(std::size_t n) {
    std::vector<Tuple> tuples;
    for (std::size_t i = 0; i < n; ++i) tuples.push_back({i * 0x9E3779B97F4A7C15ULL, i});
    if (n > 0) tuples[0] = {kMax, kMax};
    if (n > 1) tuples[1] = {0, 0};
    return tuples;
  }

  // The message of the UsageError that `read` throws.
  template <class Read>
  static std::string usage_error_of(Read&& read) {
    try {
      read();
    } catch (const UsageError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no UsageError thrown";
    return {};
  }

  std::filesystem::path dir_;
};

TEST(FormatForPath, CsvSuffixInAnyCase) {
  EXPECT_EQ(format_for_path("r.csv"), FileFormat::csv);
  EXPECT_EQ(format_for_path("/data/R.CSV"), FileFormat::csv);
  EXPECT_EQ(format_for_path("r.Csv"), FileFormat::csv);
  EXPECT_EQ(format_for_path(".csv"), FileFormat::csv);
  EXPECT_EQ(format_for_path("r.bin"), FileFormat::binary);
  EXPECT_EQ(format_for_path("r.csv.bin"), FileFormat::binary);
  EXPECT_EQ(format_for_path("csv"), FileFormat::binary);
  EXPECT_EQ(format_for_path("rcsv"), FileFormat::binary);
  EXPECT_EQ(format_for_path(""), FileFormat::binary);
}

TEST_F(RelationFileTest, BinaryRoundTrip) {
  const auto tuples = sample_tuples(1000);
  const std::string p = path("r.bin");
  write_relation(p, FileFormat::binary, tuples.data(), tuples.size());
  EXPECT_EQ(std::filesystem::file_size(p), tuples.size() * 16);
  EXPECT_EQ(read_all(p, 1), tuples);
}

TEST_F(RelationFileTest, BinaryRecordsAreLittleEndianKeyThenRid) {
  const Tuple t{0x0102030405060708ULL, 0x1112131415161718ULL};
  const std::string p = path("one.bin");
  write_relation(p, FileFormat::binary, &t, 1);
  std::ifstream in(p, std::ios::binary);
  unsigned char bytes[16];
  in.read(reinterpret_cast<char*>(bytes), 16);
  ASSERT_TRUE(in);
  EXPECT_EQ(bytes[0], 0x08);
  EXPECT_EQ(bytes[7], 0x01);
  EXPECT_EQ(bytes[8], 0x18);
  EXPECT_EQ(bytes[15], 0x11);
}

TEST_F(RelationFileTest, BinaryPartsFollowSplitPoints) {
  const auto tuples = sample_tuples(10);
  const std::string p = path("r.dat");
  write_relation(p, FileFormat::binary, tuples.data(), tuples.size());
  for (unsigned parts = 1; parts <= 13; ++parts) {
    std::vector<Tuple> all;
    for (unsigned part = 0; part < parts; ++part) {
      const auto piece = read_relation_part(p, part, parts);
      ASSERT_EQ(piece.size(), split_point(10, parts, part + 1) - split_point(10, parts, part));
      all.insert(all.end(), piece.begin(), piece.end());
    }
    EXPECT_EQ(all, tuples) << parts << " parts";
  }
}

TEST_F(RelationFileTest, EmptyBinaryFile) {
  const std::string p = write_text("empty.bin", "");
  EXPECT_EQ(read_relation_part(p, 0, 1).size(), 0u);
  EXPECT_EQ(read_relation_part(p, 2, 3).size(), 0u);
}

TEST_F(RelationFileTest, CsvRoundTrip) {
  const auto tuples = sample_tuples(1000);
  const std::string p = path("r.csv");
  write_relation(p, FileFormat::csv, tuples.data(), tuples.size());
  std::ifstream in(p);
  std::string first, second;
  std::getline(in, first);
  std::getline(in, second);
  EXPECT_EQ(first, "key,rid");
  EXPECT_EQ(second, "18446744073709551615,18446744073709551615");
  EXPECT_EQ(read_all(p, 1), tuples);
  EXPECT_EQ(read_all(p, 7), tuples);
}

TEST_F(RelationFileTest, CsvEverySplitReadsEachLineOnce) {
  const std::string content =
      "key,rid\r\n"
      "1,10\n"
      "\n"
      "  22 ,\t220\r\n"
      "333,3330\n"
      "\t\n"
      "4,40\n"
      "18446744073709551615,5\n"
      "6,6";
  const std::vector<Tuple> expected{{1, 10}, {22, 220}, {333, 3330}, {4, 40}, {kMax, 5}, {6, 6}};
  const std::string p = write_text("split.csv", content);
  const unsigned lines = 9;
  for (unsigned parts = 1; parts <= lines + 3; ++parts) EXPECT_EQ(read_all(p, parts), expected) << parts << " parts";
  // Splits of the bytes finer than the lines, too.
  for (unsigned parts : {40u, static_cast<unsigned>(content.size()), static_cast<unsigned>(content.size()) + 5}) {
    EXPECT_EQ(read_all(p, parts), expected) << parts << " parts";
  }
}

TEST_F(RelationFileTest, CsvSplitsAcrossReadChunks) {
  // Larger than the reader's chunks, so that lines straddle chunk borders.
  std::vector<Tuple> tuples;
  std::string content = "key,rid\n";
  for (std::uint64_t i = 0; i < 700000; ++i) {
    const Tuple t{i * 2654435761ULL, i};
    tuples.push_back(t);
    content.append(std::to_string(t.key)).append(i % 3 == 0 ? " , " : ",").append(std::to_string(t.rid));
    content.append(i % 5 == 0 ? "\r\n" : "\n");
  }
  ASSERT_GT(content.size(), 8u << 20);
  const std::string p = write_text("big.csv", content);
  for (unsigned parts : {1u, 2u, 3u, 7u, 64u}) EXPECT_EQ(read_all(p, parts), tuples) << parts << " parts";
}

TEST_F(RelationFileTest, CsvHeaderIsOptional) {
  EXPECT_EQ(read_all(write_text("a.csv", "7,8\n9,10\n"), 1), (std::vector<Tuple>{{7, 8}, {9, 10}}));
  EXPECT_EQ(read_all(write_text("b.csv", "  key , rid\n7,8\n"), 1), (std::vector<Tuple>{{7, 8}}));
  EXPECT_EQ(read_all(write_text("c.csv", "\xEF\xBB\xBFkey,rid\n7,8\n"), 1), (std::vector<Tuple>{{7, 8}}));
  EXPECT_EQ(read_all(write_text("d.csv", "\xEF\xBB\xBF" "7,8\n"), 1), (std::vector<Tuple>{{7, 8}}));
  EXPECT_TRUE(read_all(write_text("e.csv", "key,rid\n"), 3).empty());
  EXPECT_TRUE(read_all(write_text("f.csv", ""), 2).empty());
  EXPECT_TRUE(read_all(write_text("g.csv", "\n\r\n  \n"), 2).empty());
  // Only the first line can be a header.
  EXPECT_NE(usage_error_of([&] { read_all(write_text("h.csv", "7,8\nkey,rid\n"), 1); }).find("byte offset 4"),
            std::string::npos);
}

struct MalformedCase {
  std::string content;
  std::uint64_t offset;
  std::string shown;
  friend std::ostream& operator<<(std::ostream& out, const MalformedCase& c) {
    return out << "line \"" << c.shown << "\" at byte offset " << c.offset;
  }
};

class MalformedCsv : public RelationFileTest, public ::testing::WithParamInterface<MalformedCase> {};

TEST_P(MalformedCsv, IsAUsageErrorNamingTheOffset) {
  const auto& c = GetParam();
  const std::string p = write_text("bad.csv", c.content);
  for (unsigned parts : {1u, 2u, 5u}) {
    const std::string message = usage_error_of([&] { read_all(p, parts); });
    EXPECT_NE(message.find("input '" + p + "': malformed line at byte offset " + std::to_string(c.offset) + ":"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("found \"" + c.shown + "\""), std::string::npos) << message;
    EXPECT_NE(message.find("two unsigned 64-bit integers"), std::string::npos) << message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Lines, MalformedCsv,
    ::testing::Values(MalformedCase{"key,rid\n1,2\n12,abc\n3,4\n", 12, "12,abc"},
                      MalformedCase{"1,2\n3 4\n", 4, "3 4"},                                // missing comma
                      MalformedCase{"1,2\n34\n", 4, "34"},                                  // one number
                      MalformedCase{"1,2\n18446744073709551616,1\n", 4, "18446744073709551616,1"},  // 2^64
                      MalformedCase{"1,2\n1,99999999999999999999999\n", 4, "1,99999999999999999999999"},
                      MalformedCase{"1,2\n3,-4\r\n", 4, "3,-4"},                           // negative
                      MalformedCase{"-3,4\n", 0, "-3,4"},                                   // negative, first line
                      MalformedCase{"1,2\n+3,4\n", 4, "+3,4"},
                      MalformedCase{"1,2\n3,4,5\n", 4, "3,4,5"},                            // extra field
                      MalformedCase{"1,2\n,5\n", 4, ",5"},                                  // empty field
                      MalformedCase{"1,2\n3,4x", 4, "3,4x"},                                // at end of file
                      MalformedCase{"1,2\n1.5,2\n", 4, "1.5,2"},
                      MalformedCase{std::string("1,2\n3,\0" "4\n", 9), 4, "3,?4"}));

TEST_F(RelationFileTest, MalformedLongLineIsShortenedInTheMessage) {
  const std::string line = "1," + std::string(500, '7') + "x";
  const std::string message = usage_error_of([&] { read_all(write_text("long.csv", "5,5\n" + line + "\n"), 1); });
  EXPECT_NE(message.find("byte offset 4"), std::string::npos) << message;
  EXPECT_NE(message.find("...\""), std::string::npos) << message;
  EXPECT_LT(message.size(), 300u) << message;
}

TEST_F(RelationFileTest, MissingFile) {
  const std::string p = path("nothing.csv");
  EXPECT_EQ(usage_error_of([&] { read_relation_part(p, 0, 1); }),
            "cannot open input file '" + p + "': No such file or directory");
  EXPECT_NE(usage_error_of([&] { read_relation_part(path("nothing.bin"), 0, 1); }).find("No such file or directory"),
            std::string::npos);
}

TEST_F(RelationFileTest, DirectoryIsNotAnInput) {
  std::filesystem::create_directory(path("dir.csv"));
  EXPECT_NE(usage_error_of([&] { read_relation_part(path("dir.csv"), 0, 1); }).find("is a directory"),
            std::string::npos);
  EXPECT_NE(usage_error_of([&] { read_relation_part(dir_.string(), 0, 1); }).find("is a directory"),
            std::string::npos);
}

TEST_F(RelationFileTest, BinarySizeMustBeAMultipleOf16) {
  const std::string bin = write_text("odd.bin", std::string(17, '\xFF'));
  const std::string message = usage_error_of([&] { read_relation_part(bin, 0, 1); });
  EXPECT_NE(message.find("17 bytes, is not a multiple of 16"), std::string::npos) << message;
  EXPECT_EQ(message.find(".csv"), std::string::npos) << message;

  // Text under a non-.csv name: the message suggests the rename.
  const std::string txt = write_text("r.txt", "key,rid\n1,2\n3,44\n");
  const std::string text_message = usage_error_of([&] { read_relation_part(txt, 1, 2); });
  EXPECT_NE(text_message.find("not a multiple of 16"), std::string::npos) << text_message;
  EXPECT_NE(text_message.find("name ending in .csv"), std::string::npos) << text_message;
}

TEST_F(RelationFileTest, PartMustBeBelowParts) {
  const std::string p = write_text("r.csv", "1,2\n");
  EXPECT_THROW(read_relation_part(p, 0, 0), UsageError);
  EXPECT_THROW(read_relation_part(p, 3, 3), UsageError);
}

TEST_F(RelationFileTest, WriteFailureIsAnError) {
  const Tuple t{1, 2};
  EXPECT_THROW(write_relation(path("no/such/dir/r.csv"), FileFormat::csv, &t, 1), Error);
  EXPECT_THROW(write_relation(dir_.string(), FileFormat::binary, &t, 1), Error);
  if (std::filesystem::exists("/dev/full")) {
    EXPECT_THROW(write_relation("/dev/full", FileFormat::csv, &t, 1), Error);
  }
}

TEST_F(RelationFileTest, WriteReplacesAnExistingFile) {
  const std::string p = write_text("r.csv", std::string(10000, 'x'));
  const Tuple t{3, 4};
  write_relation(p, FileFormat::csv, &t, 1);
  EXPECT_EQ(read_all(p, 1), std::vector<Tuple>{t});
  write_relation(p, FileFormat::csv, nullptr, 0);
  EXPECT_TRUE(read_all(p, 1).empty());
}

}  // namespace
}  // namespace hpcdb
