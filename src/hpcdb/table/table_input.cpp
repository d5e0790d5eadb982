#include "hpcdb/table/table_input.hpp"

#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

bool has_glob_characters(const std::string& path) { return path.find_first_of("*?[") != std::string::npos; }

std::vector<std::string> directory_files(const std::string& path) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name[0] == '.' || name[0] == '_') continue;
    if (entry.is_regular_file()) files.push_back(entry.path().string());
  }
  if (error) throw UsageError("cannot read directory '" + path + "': " + error.message());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> glob_files(const std::string& pattern) {
  glob_t matches{};
  const int status = glob(pattern.c_str(), 0, nullptr, &matches);
  std::vector<std::string> files;
  if (status == 0) {
    for (std::size_t i = 0; i < matches.gl_pathc; ++i) {
      struct stat info {};
      if (stat(matches.gl_pathv[i], &info) == 0 && S_ISREG(info.st_mode)) files.emplace_back(matches.gl_pathv[i]);
    }
  }
  globfree(&matches);
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::vector<std::string> input_files(const std::string& path) {
  if (path.empty()) throw UsageError("an input path is empty");
  struct stat info {};
  std::vector<std::string> files;
  if (stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) {
      files = directory_files(path);
      if (files.empty()) throw UsageError("input directory '" + path + "' holds no files");
      return files;
    }
    if (!S_ISREG(info.st_mode)) throw UsageError("input '" + path + "' is not a regular file or a directory");
    return {path};
  }
  if (has_glob_characters(path)) {
    files = glob_files(path);
    if (files.empty()) throw UsageError("no file matches '" + path + "'");
    return files;
  }
  throw UsageError("cannot read input '" + path + "': no such file or directory");
}

TableFormat format_of_file(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".parquet" || ext == ".pq") return TableFormat::parquet;
  if (ext == ".csv" || ext == ".tsv") return TableFormat::csv;
  if (ext == ".arrow" || ext == ".ipc" || ext == ".feather") return TableFormat::arrow_ipc;
  throw UsageError("cannot tell the format of '" + path +
                   "' from its name: name Parquet files *.parquet, CSV files *.csv, Arrow IPC files *.arrow");
}

TableFormat format_of_files(const std::vector<std::string>& files, const std::string& path) {
  const TableFormat format = format_of_file(files.front());
  for (const std::string& file : files) {
    if (format_of_file(file) != format) {
      throw UsageError("the files of '" + path + "' are not all of one format ('" + files.front() + "', '" + file + "')");
    }
  }
  return format;
}

std::string to_string(TableFormat format) {
  switch (format) {
    case TableFormat::parquet: return "parquet";
    case TableFormat::csv: return "csv";
    case TableFormat::arrow_ipc: return "arrow";
  }
  return "unknown";
}

std::string display_name(TableFormat format) {
  switch (format) {
    case TableFormat::parquet: return "Parquet";
    case TableFormat::csv: return "CSV";
    case TableFormat::arrow_ipc: return "Arrow IPC";
  }
  return "table";
}

}  // namespace hpcdb
