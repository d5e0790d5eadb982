#include "hpcdb/core/output_path.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

namespace fs = std::filesystem;

std::string refusal(const std::string& path) {
  try {
    check_output_path(path, "JSON file");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

class OutputPath : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("hpcdb_output_path_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(OutputPath, AcceptsStandardOutputNewAndExistingFiles) {
  EXPECT_EQ(refusal(""), "");
  EXPECT_EQ(refusal("-"), "");
  EXPECT_EQ(refusal((dir_ / "new.json").string()), "");
  std::ofstream((dir_ / "old.json").string()) << "{}";
  EXPECT_EQ(refusal((dir_ / "old.json").string()), "");
  EXPECT_FALSE(fs::exists(dir_ / "new.json")) << "a check must not create the file";
}

TEST_F(OutputPath, RefusesMissingDirectoriesAndDirectories) {
  const std::string missing = (dir_ / "no" / "such" / "r.json").string();
  EXPECT_EQ(refusal(missing),
            "cannot write JSON file '" + missing + "': directory '" + (dir_ / "no" / "such").string() + "' does not exist");
  EXPECT_EQ(refusal(dir_.string()), "cannot write JSON file '" + dir_.string() + "': it is a directory");
  // A path through a regular file is no directory either.
  std::ofstream((dir_ / "file").string()) << "x";
  EXPECT_NE(refusal((dir_ / "file" / "r.json").string()), "");
}

}  // namespace
}  // namespace hpcdb
