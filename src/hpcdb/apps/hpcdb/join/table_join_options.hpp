#pragma once
// `hpcdb join` on tables: --left/--right files (Parquet, CSV, Arrow IPC),
// --on key columns, --how, --columns, --output DIR. The generated workload's
// options do not apply; the operators' options (--algorithm radix or
// sort-merge, --threads, --network-bits, ...) do.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>


namespace hpcdb {

struct JoinOptions;
struct TableJoinRequest;  // api/table_join.hpp

struct TableJoinOptions {
  std::string left;
  std::string right;
  std::string on;
  std::string how = "inner";
  std::string columns;
  std::string suffixes = "_l,_r";
  std::vector<std::string> left_types;   // CSV: NAME:TYPE
  std::vector<std::string> right_types;
  bool overwrite = false;
  std::string progress = "auto";  // auto (on a terminal), off
  std::string strategy = "auto";  // auto, partitioned, broadcast
  unsigned testing_hash_bits = 64;
  std::uint64_t testing_slice_rows = 0;
  // Whether any option of a table join was given (the others are then refused if missing).
  bool given() const {
    return !left.empty() || !right.empty() || !on.empty() || !columns.empty() || !left_types.empty() ||
           !right_types.empty() || overwrite || strategy != "auto" || testing_hash_bits != 64 ||
           testing_slice_rows != 0;
  }
};

// Declares the options on the `join` subcommand.
void add_table_join_options(CLI::App& join, TableJoinOptions& options);

// The request the options describe (UsageError for a bad or inapplicable
// option). `options.table` holds the table options; the operators' options
// are resolved for `ranks` ranks first.
TableJoinRequest table_join_request(JoinOptions& options, int ranks);

}  // namespace hpcdb
