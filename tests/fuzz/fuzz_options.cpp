// The command line on any arguments (one per line of the input): the
// checks before parsing, CLI11's parsing with every option check, and the
// join, transaction and shuffle options' resolution either accept the
// arguments or refuse them with a usage error; nothing crashes, wraps or
// throws anything else.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "hpcdb/apps/hpcdb/command_line.hpp"
#include "hpcdb/apps/hpcdb/join/join_options.hpp"
#include "hpcdb/apps/hpcdb/shuffle/shuffle_command.hpp"
#include "hpcdb/apps/hpcdb/txn/txn_command.hpp"
#include "hpcdb/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args;
  std::string current;
  for (std::size_t i = 0; i < size && args.size() < 64; ++i) {
    if (data[i] == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  if (!current.empty()) args.push_back(current);

  (void)hpcdb::unknown_command_message(args, {"join", "txn", "shuffle"});
  if (hpcdb::repeated_option_message(args)) return 0;

  CLI::App app{"hpcdb"};
  app.require_subcommand(1);
  hpcdb::JoinOptions join_options;
  CLI::App* join = app.add_subcommand("join");
  hpcdb::add_join_options(*join, join_options);
  hpcdb::TxnOptions txn_options;
  CLI::App* txn = app.add_subcommand("txn");
  hpcdb::add_txn_options(*txn, txn_options);
  hpcdb::ShuffleOptions shuffle_options;
  CLI::App* shuffle = app.add_subcommand("shuffle");
  hpcdb::add_shuffle_options(*shuffle, shuffle_options);
  hpcdb::refuse_wrapped_and_non_finite_numbers(app);

  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  try {
    app.parse(reversed);
    if (join->parsed()) hpcdb::resolve(join_options, 1 + static_cast<int>(size % 5));  // jobs of 1-5 ranks
    if (txn->parsed()) (void)hpcdb::resolve(txn_options);
    if (shuffle->parsed()) (void)hpcdb::resolve(shuffle_options);
  } catch (const CLI::Error&) {
  } catch (const hpcdb::UsageError&) {
  }
  return 0;
}
