#pragma once
// Where a table comes from: a Parquet file, a directory of Parquet files, a
// glob, a CSV file with a header line, or an Arrow IPC file; which columns to
// read; and for CSV the column types that are given rather than inferred.
#include <map>
#include <string>
#include <vector>

namespace hpcdb {

enum class TableFormat { parquet, csv, arrow_ipc };

struct TableInput {
  std::string path;                  // file, directory or glob
  std::vector<std::string> columns;  // projection; empty: every column
  // CSV only: types of some columns by name ("int64", "string", "date32",
  // "timestamp[ms]", "decimal128(15,2)", ...); the others are inferred.
  std::map<std::string, std::string> csv_types;
  char csv_delimiter = ',';
};

// The files a path names, in a fixed order: the file itself; a directory's
// files (sorted by name, hidden files and names starting with '_' left out);
// or the matches of a glob (sorted). Throws UsageError when there are none.
std::vector<std::string> input_files(const std::string& path);

// The format of a file, from its name (*.parquet, *.pq; *.csv, *.tsv;
// *.arrow, *.ipc, *.feather); a directory's files must share one.
TableFormat format_of_file(const std::string& path);
TableFormat format_of_files(const std::vector<std::string>& files, const std::string& path);

std::string to_string(TableFormat format);     // as in options: "parquet", "csv", "arrow"
std::string display_name(TableFormat format);  // as in messages: "Parquet", "CSV", "Arrow IPC"

}  // namespace hpcdb
