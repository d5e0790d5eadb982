#pragma once
// `hpcdb shuffle` on a table: --input PATH --on COL[,COL] --output DIR
// (instead of the generated rows of the transport designs' benchmark).
#include <CLI/CLI.hpp>

#include <string>
#include <vector>


namespace hpcdb {

struct TableShuffleRequest;  // api/table_shuffle.hpp

struct TableShuffleOptions {
  std::string input;
  std::string on;
  std::string output;
  std::string columns;
  bool overwrite = false;
  std::string progress = "auto";
  std::vector<std::string> generated_given;  // options of the generated rows that were given
  bool given() const { return !input.empty() || !on.empty() || !output.empty(); }
};

// Declares the options on the `shuffle` subcommand; call it after the
// generated rows' options are declared (it notes which of them are given).
void add_table_shuffle_options(CLI::App& shuffle, TableShuffleOptions& options);

// UsageError for a missing or inapplicable option.
TableShuffleRequest table_shuffle_request(const TableShuffleOptions& options);

}  // namespace hpcdb
