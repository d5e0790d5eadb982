#include "hpcdb/core/output_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

namespace fs = std::filesystem;

class OutputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("hpcdb_output_file_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string content_of(const std::string& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // Names in the directory, to see that no temporary file is left.
  std::string listing() const {
    std::string names;
    for (const auto& entry : fs::directory_iterator(dir_)) names += entry.path().filename().string() + " ";
    return names;
  }
  static std::string error_of(const std::function<void()>& write) {
    try {
      write();
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(OutputFile, WritesANewFileAndLeavesNothingElse) {
  write_output_file(path("r.json"), "JSON file", "{}\n");
  EXPECT_EQ(content_of(path("r.json")), "{}\n");
  EXPECT_EQ(listing(), "r.json ");
}

TEST_F(OutputFile, ReplacesAnExistingFileKeepingItsMode) {
  std::ofstream(path("r.json")) << std::string(10000, 'x');
  ASSERT_EQ(::chmod(path("r.json").c_str(), 0640), 0);
  write_output_file(path("r.json"), "JSON file", "new");
  EXPECT_EQ(content_of(path("r.json")), "new");
  struct stat status {};
  ASSERT_EQ(::stat(path("r.json").c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0640u);
  EXPECT_EQ(listing(), "r.json ");
}

TEST_F(OutputFile, UncommittedOutputLeavesTheOldFile) {
  std::ofstream(path("r.bin")) << "old";
  {
    StagedOutput output(path("r.bin"), "pair file");
    EXPECT_FALSE(output.in_place());
    EXPECT_NE(output.staging_path(), path("r.bin"));
    EXPECT_EQ(fs::path(output.staging_path()).parent_path(), dir_) << "staged beside its path, for the rename";
    FileSink sink(output.staging_path(), "pair file", path("r.bin"));
    sink.write("half", 4);
    // no commit: a failure elsewhere ended the output
  }
  EXPECT_EQ(content_of(path("r.bin")), "old");
  EXPECT_EQ(listing(), "r.bin ");
}

TEST_F(OutputFile, WritesAtOffsets) {
  StagedOutput output(path("r.bin"), "file");
  {
    FileSink second(output.staging_path(), "file", path("r.bin"));
    second.write_at("world", 5, 6);
    second.close();
    FileSink first(output.staging_path(), "file", path("r.bin"));
    first.write_at("hello ", 6, 0);
    first.close();
  }
  output.commit();
  EXPECT_EQ(content_of(path("r.bin")), "hello world");
}

TEST_F(OutputFile, ReplacesTheTargetOfASymbolicLink) {
  fs::create_directory(dir_ / "data");
  std::ofstream(path("data/target.csv")) << "old";
  fs::create_symlink(dir_ / "data" / "target.csv", dir_ / "link.csv");
  write_output_file(path("link.csv"), "pair file", "new");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.csv"));
  EXPECT_EQ(content_of(path("data/target.csv")), "new");
  EXPECT_EQ(listing().find("partial"), std::string::npos) << listing();
}

TEST_F(OutputFile, FailuresNameTheFileAndTheSystemsReason) {
  if (fs::exists("/dev/full")) {
    EXPECT_EQ(error_of([] { write_output_file("/dev/full", "JSON file", "{}"); }),
              "cannot write JSON file '/dev/full': No space left on device");
  }
  const std::string missing = path("no/such/r.json");
  EXPECT_EQ(error_of([&] { write_output_file(missing, "JSON file", "{}"); }),
            "cannot write JSON file '" + missing + "': No such file or directory");
  EXPECT_NE(error_of([&] { write_output_file(dir_.string(), "JSON file", "{}"); }).find("Is a directory"),
            std::string::npos);
}

TEST_F(OutputFile, DevicesAreWrittenInPlace) {
  StagedOutput output("/dev/null", "pair file");
  EXPECT_TRUE(output.in_place());
  FileSink sink(output.staging_path(), "pair file", "/dev/null");
  sink.write("x", 1);
  sink.close();
  output.commit();
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

}  // namespace
}  // namespace hpcdb
