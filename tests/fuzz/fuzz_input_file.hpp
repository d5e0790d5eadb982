#pragma once
// A fuzz input as a file the readers can open: one file per process,
// rewritten for every input, removed when the process ends.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace hpcdb::fuzz {

class InputFile {
 public:
  // `name`: the file's name, whose ending chooses the format (".csv", ".bin").
  explicit InputFile(const std::string& name) {
    directory_ = std::filesystem::temp_directory_path() / ("hpcdb_fuzz_" + std::to_string(::getpid()));
    std::filesystem::create_directories(directory_);
    path_ = (directory_ / name).string();
  }
  ~InputFile() {
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }

  const std::string& write(const std::uint8_t* data, std::size_t size) {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return path_;
  }

 private:
  std::filesystem::path directory_;
  std::string path_;
};

}  // namespace hpcdb::fuzz
