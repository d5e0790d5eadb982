#include "hpcdb/apps/hpcdb/join/table_join_options.hpp"

#include <sstream>
#include <utility>

#include "hpcdb/apps/hpcdb/join/join_options.hpp"
#include "hpcdb/api/table_join.hpp"
#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) throw UsageError("an empty name in the list '" + text + "'");
    items.push_back(item);
  }
  return items;
}

// NAME:TYPE items separated by commas outside parentheses (decimal128(15,2) holds one).
std::vector<std::string> type_items(const std::vector<std::string>& given) {
  std::vector<std::string> items;
  for (const std::string& text : given) {
    std::string item;
    int depth = 0;
    for (char c : text) {
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      if (c == ',' && depth == 0) items.push_back(std::exchange(item, {}));
      else item += c;
    }
    items.push_back(item);
  }
  return items;
}

std::map<std::string, std::string> column_types(const std::vector<std::string>& given, const std::string& option) {
  std::map<std::string, std::string> types;
  for (const std::string& spec : type_items(given)) {
    const std::size_t colon = spec.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size()) {
      throw UsageError(option + " takes NAME:TYPE (e.g. id:int64,name:string), not '" + spec + "'");
    }
    types[spec.substr(0, colon)] = spec.substr(colon + 1);
  }
  return types;
}

// Options of the generated workload and of the pair outputs, which tables do not take.
void refuse_inapplicable(const JoinOptions& o) {
  if (o.table.left.empty() || o.table.right.empty()) throw UsageError("--left and --right go together: give both tables");
  if (o.table.on.empty()) throw UsageError("a join of tables needs --on LEFT=RIGHT[,LEFT2=RIGHT2]");
  for (const std::string& name : o.generator_options_given) {
    throw UsageError(name + " shapes generated data, but the tables come from --left/--right; leave it out");
  }
  if (o.from_files()) throw UsageError("--input-r/--input-s are <key, rid> files; tables come with --left/--right");
  if (o.header_given) throw UsageError("--header applies to --input-r/--input-s; CSV tables always have a header line");
  if (o.payload_bytes != "0") throw UsageError("--payload-bytes gives generated tuples payloads; tables have their columns");
  if (o.verify) throw UsageError("--verify checks the generated workload's join; check a table join against another system");
  if (o.repeat != 1) throw UsageError("--repeat runs the generated workload's join again; a table join runs once");
  if (o.algorithm != "radix" && o.algorithm != "sort-merge") {
    throw UsageError("tables are joined by --algorithm radix or sort-merge, not " + o.algorithm);
  }
  if (!o.calibration.empty()) throw UsageError("--calibration models the generated workload's join, not a table join");
}

}  // namespace

void add_table_join_options(CLI::App& join, TableJoinOptions& o) {
  const std::string group = "Tables (instead of the generated workload)";
  join.add_option("--left", o.left,
                  "Left table: a Parquet file, a directory of Parquet files, a glob (quoted), a CSV file with a header "
                  "line, or an Arrow IPC file (*.arrow); every rank reads its share of the row groups")
      ->group(group);
  join.add_option("--right", o.right, "Right table (as --left)")->group(group);
  join.add_option("--on", o.on, "Key columns: LEFT=RIGHT[,LEFT2=RIGHT2] (or NAME for a column both have); integers, "
                                "date32, timestamps or strings; null keys match nothing")
      ->group(group);
  join.add_option("--how", o.how, "inner, left, right, full (outer joins), semi or anti (rows of the left table with, "
                                  "or without, a match)")
      ->check(CLI::IsMember({"inner", "left", "right", "full", "semi", "anti"}))
      ->capture_default_str()
      ->group(group);
  join.add_option("--columns", o.columns,
                  "Result columns, comma-separated, by result name (default: every column of both tables, of the left "
                  "one for semi and anti joins; a name both tables have gets --suffixes)")
      ->group(group);
  join.add_option("--suffixes", o.suffixes, "Suffixes of a column name both tables have: LEFT,RIGHT")
      ->capture_default_str()
      ->group(group);
  join.add_option("--left-types", o.left_types, "CSV left table: types of columns, NAME:TYPE (int8-int64, uint8-uint64, "
                                               "float, double, bool, date32, timestamp[s|ms|us|ns], decimal128(P,S), "
                                               "string), comma-separated; the others are inferred")
      ->group(group);
  join.add_option("--right-types", o.right_types, "CSV right table: as --left-types")->group(group);
  join.add_option("--strategy", o.strategy,
                  "How rows move: partitioned (both sides' keys partitioned over the ranks by --algorithm, then the "
                  "result's columns fetched from the rows' owners), broadcast (the smaller side copied to every rank and "
                  "probed there by the other side's own rows), or auto (broadcast when the smaller side times the other "
                  "ranks is no larger than the larger side)")
      ->check(CLI::IsMember({"auto", "partitioned", "broadcast"}))
      ->capture_default_str()
      ->group(group);
  join.add_flag("--overwrite", o.overwrite, "Replace an existing --output directory")->group(group);
  join.add_option("--progress", o.progress, "A progress line on the terminal for long phases: auto (when standard "
                                            "error is a terminal) or off")
      ->check(CLI::IsMember({"auto", "off"}))
      ->capture_default_str()
      ->group(group);
  join.add_option("--testing-hash-bits", o.testing_hash_bits,
                  "Testing aid: keep only this many bits of string and composite key hashes, forcing collisions "
                  "(which the join must drop)")
      ->check(CLI::Range(1u, 64u))
      ->group(group);
  join.add_option("--testing-slice-rows", o.testing_slice_rows,
                  "Testing aid: result rows a rank makes at a time (default 4M)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40))
      ->group(group);
}

TableJoinRequest table_join_request(JoinOptions& o, int ranks) {
  refuse_inapplicable(o);
  const std::string pair_output = o.output;
  o.output.clear();  // to_request() would read it as a pair file
  // The operator's options and the progress guard, checked as for any join.
  const JoinRequest operators = to_request(o);
  validate(operators, ranks);
  o.output = pair_output;
  TableJoinRequest request;
  request.left.input.path = o.table.left;
  request.right.input.path = o.table.right;
  request.left.input.csv_types = column_types(o.table.left_types, "--left-types");
  request.right.input.csv_types = column_types(o.table.right_types, "--right-types");
  request.on = parse_join_keys(o.table.on);
  request.how = parse_join_how(o.table.how);
  if (!o.table.columns.empty()) request.columns = split_list(o.table.columns);
  const std::vector<std::string> suffixes = split_list(o.table.suffixes);
  if (suffixes.size() != 2 || suffixes[0] == suffixes[1]) throw UsageError("--suffixes takes two different suffixes: LEFT,RIGHT");
  request.suffixes = {suffixes[0], suffixes[1]};
  request.operators = operators.configs;
  request.strategy = parse_table_join_strategy(o.table.strategy);
  request.guard = operators.guard;
  request.output = {o.output, o.table.overwrite};
  request.progress = o.table.progress == "auto";
  request.testing_hash_bits = o.table.testing_hash_bits;
  request.testing_slice_rows = o.table.testing_slice_rows;
  return request;
}

}  // namespace hpcdb
