#include "hpcdb/apps/hpcdb/shuffle/table_shuffle_options.hpp"

#include <algorithm>
#include <sstream>

#include "hpcdb/api/table_shuffle.hpp"
#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

std::vector<std::string> split_names(const std::string& text, const std::string& option) {
  std::vector<std::string> names;
  std::stringstream in(text);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (name.empty()) throw UsageError(option + " has an empty column name: '" + text + "'");
    names.push_back(name);
  }
  return names;
}

}  // namespace

void add_table_shuffle_options(CLI::App& shuffle, TableShuffleOptions& o) {
  const std::string group = "Tables (instead of generated rows)";
  shuffle.add_option("--input", o.input,
                     "Table to shuffle: a Parquet file, a directory of Parquet files, a glob (quoted), a CSV file with "
                     "a header line, or an Arrow IPC file (*.arrow); every rank reads its share")
      ->group(group);
  shuffle.add_option("--on", o.on, "Key columns COL[,COL]: all rows of a key land on one rank (integers, date32, "
                                   "timestamps, strings; rows with a null key go to rank 0)")
      ->group(group);
  shuffle.add_option("--columns", o.columns, "Columns to read and shuffle (default: all)")->group(group);
  shuffle.add_option("--output", o.output, "Write each rank's rows to DIR/part-RRRRR.parquet")->group(group);
  shuffle.add_flag("--overwrite", o.overwrite, "Replace an existing --output directory")->group(group);
  shuffle.add_option("--progress", o.progress, "A progress line on the terminal for long phases: auto or off")
      ->check(CLI::IsMember({"auto", "off"}))
      ->capture_default_str()
      ->group(group);
  for (const char* name : {"--tuples", "--width", "--distribution", "--theta", "--keys", "--transport", "--buffer-size",
                           "--buffers", "--threads", "--repeat", "--seed", "--direct-writes", "--row-writes", "--verify"}) {
    if (CLI::Option* option = shuffle.get_option_no_throw(name)) {
      option->each([&o, name = std::string(name)](const std::string&) { o.generated_given.push_back(name); });
    }
  }
}

TableShuffleRequest table_shuffle_request(const TableShuffleOptions& o) {
  if (o.input.empty()) throw UsageError("a shuffle of a table needs --input (and --on)");
  if (o.on.empty()) throw UsageError("a shuffle of a table needs --on COL[,COL]");
  for (const std::string& name : o.generated_given) {
    throw UsageError(name + " applies to the generated rows of the transport benchmark, not to --input tables; leave it out");
  }
  TableShuffleRequest request;
  request.input.path = o.input;
  request.on = split_names(o.on, "--on");
  if (!o.columns.empty()) {
    request.input.columns = split_names(o.columns, "--columns");
    for (const std::string& key : request.on) {
      if (std::find(request.input.columns.begin(), request.input.columns.end(), key) == request.input.columns.end()) {
        request.input.columns.push_back(key);
      }
    }
  }
  request.output = {o.output, o.overwrite};
  request.progress = o.progress == "auto";
  return request;
}

}  // namespace hpcdb
