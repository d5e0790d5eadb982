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

TEST_F(OutputPath, StandardOutputOnlyWhereAllowed) {
  EXPECT_EQ(refusal("-"), "");
  try {
    check_output_path("-", "pair file", StandardOutput::refused);
    ADD_FAILURE() << "standard output accepted for a file all ranks write";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write pair file '-': standard output"), std::string::npos) << e.what();
  }
}

TEST_F(OutputPath, SameFileThroughLinksAndSpellings) {
  const std::string a = (dir_ / "a.bin").string();
  std::ofstream(a) << "x";
  fs::create_hard_link(a, dir_ / "hard.bin");
  fs::create_symlink(a, dir_ / "soft.bin");
  fs::create_directory(dir_ / "sub");
  EXPECT_TRUE(same_file(a, (dir_ / "hard.bin").string()));
  EXPECT_TRUE(same_file(a, (dir_ / "soft.bin").string()));
  EXPECT_TRUE(same_file(a, (dir_ / "sub" / ".." / "a.bin").string()));
  // Files that do not exist yet: the same absolute path.
  EXPECT_TRUE(same_file((dir_ / "new.bin").string(), (dir_ / "sub" / ".." / "new.bin").string()));
  EXPECT_FALSE(same_file((dir_ / "new.bin").string(), (dir_ / "other.bin").string()));
  EXPECT_FALSE(same_file(a, (dir_ / "new.bin").string()));
}

TEST_F(OutputPath, RefusesOutputsOverOtherOutputsOrInputs) {
  const std::string r = (dir_ / "r.bin").string();
  auto refusal_of = [](const NamedPaths& outputs, const NamedPaths& inputs) -> std::string {
    try {
      refuse_same_files(outputs, inputs);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(refusal_of({{"--output-r", r}, {"--output-s", r}}, {}),
            "--output-r and --output-s name the same file ('" + r + "'); give each its own file");
  std::ofstream(r) << "x";
  fs::create_directory(dir_ / "sub");
  EXPECT_NE(refusal_of({{"--output", (dir_ / "sub" / ".." / "r.bin").string()}}, {{"--input-r", r}}), "");
  // Inputs may repeat (a self-join); empty paths, standard output and devices pass.
  EXPECT_EQ(refusal_of({{"--output", ""}, {"--json", "-"}}, {{"--input-r", r}, {"--input-s", r}}), "");
  EXPECT_EQ(refusal_of({{"--output", "-"}, {"--json", "-"}}, {}), "");
  EXPECT_EQ(refusal_of({{"--output-r", "/dev/null"}, {"--output-s", "/dev/null"}}, {}), "");
}

TEST_F(OutputPath, RefusesOutputsTheFileSystemCannotHold) {
  const std::string r = (dir_ / "r.bin").string();
  EXPECT_NO_THROW(check_output_space({{r, 1}}, "file"));
  EXPECT_THROW(check_output_space({{r, ~std::uint64_t{0} / 2}}, "file"), Error);
  // Together: two files on one file system add up.
  const std::uint64_t half = ~std::uint64_t{0} / 4;
  try {
    check_output_space({{r, half}, {(dir_ / "s.bin").string(), half}}, "file");
    ADD_FAILURE() << "no Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("together with '" + (dir_ / "s.bin").string() + "'"), std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(check_output_space({{"/dev/null", ~std::uint64_t{0}}}, "file"));
}

}  // namespace
}  // namespace hpcdb
