#include "hpcdb/data/relation_file.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
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

  static std::vector<Tuple> read_all(const std::string& p, unsigned parts, CsvHeader header = CsvHeader::automatic) {
    std::vector<Tuple> all;
    for (unsigned part = 0; part < parts; ++part) {
      const auto tuples = read_relation_part(p, part, parts, header).tuples;
      all.insert(all.end(), tuples.begin(), tuples.end());
    }
    return all;
  }

  // The header some part of `parts` skipped (at most one may).
  static std::optional<std::string> skipped_header(const std::string& p, unsigned parts,
                                                   CsvHeader header = CsvHeader::automatic) {
    std::optional<std::string> found;
    for (unsigned part = 0; part < parts; ++part) {
      auto skipped = read_relation_part(p, part, parts, header).skipped_header;
      if (skipped) {
        EXPECT_FALSE(found) << "two parts skipped a header";
        found = skipped;
      }
    }
    return found;
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
      const auto piece = read_relation_part(p, part, parts).tuples;
      ASSERT_EQ(piece.size(), split_point(10, parts, part + 1) - split_point(10, parts, part));
      all.insert(all.end(), piece.begin(), piece.end());
    }
    EXPECT_EQ(all, tuples) << parts << " parts";
  }
}

TEST_F(RelationFileTest, EmptyBinaryFile) {
  const std::string p = write_text("empty.bin", "");
  EXPECT_EQ(read_relation_part(p, 0, 1).tuples.size(), 0u);
  EXPECT_EQ(read_relation_part(p, 2, 3).tuples.size(), 0u);
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

TEST(CsvHeaderLine, OnlyTwoNamesAreClearlyAHeader) {
  for (const char* line : {"key,rid", "k,r", " key , rid ", "\"key\",\"rid\"", "_k,rid_2", "order key,row-id",
                           "R.key,R.rid"}) {
    EXPECT_TRUE(is_clearly_a_header(line)) << line;
  }
  for (const char* line : {"x5,1", "# comment", "1,2", "key", "key,rid,extra", "key,", ",rid", "key,5", "-,rid",
                           "k#,r", "5x,y", "", "\"key,rid\""}) {
    EXPECT_FALSE(is_clearly_a_header(line)) << line;
  }
}

TEST_F(RelationFileTest, AutomaticHeaderSkipsOnlyAClearHeaderAndSaysSo) {
  const std::string named = write_text("named.csv", "key,rid\r\n7,8\n");
  EXPECT_EQ(read_all(named, 1), (std::vector<Tuple>{{7, 8}}));
  for (unsigned parts : {1u, 2u, 5u, 40u}) EXPECT_EQ(skipped_header(named, parts), "key,rid") << parts << " parts";
  EXPECT_FALSE(skipped_header(write_text("plain.csv", "7,8\n"), 3));

  // A first line that is not clearly a header is data, and as data it is malformed: not skipped in silence.
  for (const char* content : {"x5,1\n1,2\n", "# comment\n1,2\n", "key;rid\n1,2\n"}) {
    const std::string message = usage_error_of([&] { read_all(write_text("odd.csv", content), 1); });
    EXPECT_NE(message.find("malformed line at byte offset 0"), std::string::npos) << message;
    EXPECT_NE(message.find("--header yes"), std::string::npos) << message;
  }
}

TEST_F(RelationFileTest, HeaderYesSkipsAnyFirstLineAndNoSkipsNone) {
  const std::string odd = write_text("odd.csv", "x5,1\n1,2\n");
  EXPECT_EQ(read_all(odd, 1, CsvHeader::present), (std::vector<Tuple>{{1, 2}}));
  EXPECT_EQ(read_all(odd, 3, CsvHeader::present), (std::vector<Tuple>{{1, 2}}));
  EXPECT_EQ(skipped_header(odd, 2, CsvHeader::present), "x5,1");
  // yes skips a numeric first line too; no keeps it.
  const std::string numeric = write_text("numeric.csv", "5,6\n1,2\n");
  EXPECT_EQ(read_all(numeric, 2, CsvHeader::present), (std::vector<Tuple>{{1, 2}}));
  EXPECT_EQ(read_all(numeric, 2, CsvHeader::absent), (std::vector<Tuple>{{5, 6}, {1, 2}}));
  const std::string named = write_text("named.csv", "key,rid\n1,2\n");
  EXPECT_NE(usage_error_of([&] { read_all(named, 1, CsvHeader::absent); }).find("found \"key,rid\""),
            std::string::npos);
  EXPECT_FALSE(skipped_header(numeric, 2, CsvHeader::absent));
}

TEST(CsvHeaderOption, ParsesAutoYesNo) {
  EXPECT_EQ(parse_csv_header("auto", "--header"), CsvHeader::automatic);
  EXPECT_EQ(parse_csv_header("yes", "--header"), CsvHeader::present);
  EXPECT_EQ(parse_csv_header("no", "--header"), CsvHeader::absent);
  EXPECT_THROW(parse_csv_header("maybe", "--header"), UsageError);
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
                      MalformedCase{"1,2\n3,\xC3\xA9" "4\n", 4, "3,\\xC3\\xA94"},      // unprintable bytes escaped
                      MalformedCase{"1,2\n3,\\4\t\n", 4, "3,\\\\4\\t"}));

TEST_F(RelationFileTest, ControlBytesFarIntoACsvAreShownEscaped) {
  // Beyond the beginning that tells binary from text: a malformed line, its bytes escaped.
  std::string content;
  while (content.size() < 5000) content += "1,2\n";
  const std::uint64_t offset = content.size();
  content += std::string("3,\0" "4\x01\n", 6);
  const std::string message = usage_error_of([&] { read_all(write_text("late.csv", content), 2); });
  EXPECT_NE(message.find("byte offset " + std::to_string(offset)), std::string::npos) << message;
  EXPECT_NE(message.find("found \"3,\\x004\\x01\""), std::string::npos) << message;
}

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

TEST_F(RelationFileTest, FifoAndDevicesAreRefusedWithoutBlocking) {
  // Opening a FIFO for reading blocks until a writer comes: the reader must refuse it instead.
  const std::string fifo = path("pipe.csv");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(usage_error_of([&] { read_relation_part(fifo, 0, 1); }).find("it is a FIFO (named pipe), not a regular file"),
            std::string::npos);
  const std::string fifo_bin = path("pipe.bin");
  ASSERT_EQ(::mkfifo(fifo_bin.c_str(), 0600), 0);
  EXPECT_NE(usage_error_of([&] { read_relation_part(fifo_bin, 1, 2); }).find("FIFO"), std::string::npos);
  EXPECT_NE(usage_error_of([&] { read_relation_part("/dev/null", 0, 1); }).find("it is a device"), std::string::npos);
  EXPECT_NE(usage_error_of([&] { read_relation_part("/dev/zero", 0, 1); }).find("it is a device"), std::string::npos);
}

TEST_F(RelationFileTest, CsvTextUnderABinaryNameIsRefusedWithAHint) {
  // 16 bytes of 'key,rid' lines: a multiple of the record size, yet text.
  for (const char* content : {"1,1\n2,2\n3,3\n4,4\n", "key,rid\n1,1\n2,2\n", "1, 2\r\n\r\n3 ,4\r\n5,6\r\n7,8\r\n9,10\r\n\n\n"}) {
    const std::string p = write_text("text.bin", content);
    ASSERT_EQ(std::filesystem::file_size(p) % 16, 0u) << content;
    for (unsigned part : {0u, 1u}) {
      const std::string message = usage_error_of([&] { read_relation_part(p, part, 2); });
      EXPECT_NE(message.find("holds CSV text"), std::string::npos) << message;
      EXPECT_NE(message.find("name ending in .csv"), std::string::npos) << message;
    }
  }
  // Large text files are judged by their complete lines at the start.
  std::string big;
  for (int i = 0; big.size() < 10000 || big.size() % 16 != 0; ++i) big += std::to_string(i) + "," + std::to_string(i) + "\n";
  EXPECT_NE(usage_error_of([&] { read_relation_part(write_text("big.dat", big), 0, 1); }).find("holds CSV text"),
            std::string::npos);
  // Binary records whose bytes happen to be printable but are no CSV lines are read as records.
  const std::string printable = write_text("printable.bin", "ABCDEFGHIJKLMNOPabcdefghijklmnop");
  EXPECT_EQ(read_relation_part(printable, 0, 1).tuples.size(), 2u);
}

TEST_F(RelationFileTest, BinaryDataUnderACsvNameIsRefusedWithAHint) {
  const auto tuples = sample_tuples(100);
  const std::string p = path("records.csv");
  write_relation(p, FileFormat::binary, tuples.data(), tuples.size());
  for (unsigned part : {0u, 2u}) {
    const std::string message = usage_error_of([&] { read_relation_part(p, part, 3); });
    EXPECT_NE(message.find("is not text"), std::string::npos) << message;
    EXPECT_NE(message.find("does not end in .csv"), std::string::npos) << message;
  }
  const std::string message = usage_error_of([&] { read_relation_part(write_text("nul.csv", std::string("1,2\n3,\0" "4\n", 9)), 0, 1); });
  EXPECT_NE(message.find("byte offset 6 holds \\x00"), std::string::npos) << message;
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
