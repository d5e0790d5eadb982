// hpcdb: a distributed in-memory query and transaction engine on MPI. Run it under mpirun
// (or as a single process): `mpirun -np 2 hpcdb join --inner 32M --outer 32M`.
#include <CLI/CLI.hpp>

#include <csignal>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "hpcdb/apps/hpcdb/command.hpp"
#include "hpcdb/apps/hpcdb/command_line.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/interruption.hpp"
#include "hpcdb/core/memory_reuse.hpp"
#include "hpcdb/core/standard_output.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/cluster.hpp"

namespace {

using Commands = std::vector<std::unique_ptr<hpcdb::Command>>;

int run(const hpcdb::Cluster& cluster, const Commands& commands, int argc, char** argv) {
  CLI::App app{"hpcdb: a distributed, in-memory query and transaction engine built on MPI.\n"
               "Run under mpirun (one rank per core, or fewer ranks with --threads), e.g.\n"
               "  mpirun -np 2 hpcdb join --algorithm radix --inner 32M --outer 32M --repeat 5\n",
               "hpcdb"};
  app.require_subcommand(1);
  std::vector<std::string> names;
  std::vector<CLI::App*> subcommands;
  for (const auto& command : commands) {
    CLI::App* subcommand = app.add_subcommand(command->name(), command->description());
    command->add_options(*subcommand);
    names.push_back(command->name());
    subcommands.push_back(subcommand);
  }
  app.set_version_flag("--version", [] { return hpcdb::version_text(); });
  hpcdb::refuse_wrapped_and_non_finite_numbers(app);

  const std::vector<std::string> args(argv + 1, argv + argc);
  const auto usage_error = [&](const std::string& message) {
    if (cluster.rank() == 0) {
      hpcdb::write_error_line("hpcdb: error: " + message + "\nRun 'hpcdb --help' or 'hpcdb COMMAND --help' for the options.");
    }
    return 2;
  };
  if (const auto message = hpcdb::unknown_command_message(args, names)) return usage_error(*message);
  if (const auto message = hpcdb::repeated_option_message(args)) return usage_error(*message);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    if (cluster.rank() == 0) return app.exit(e);
    return 0;
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (subcommands[i]->parsed()) return commands[i]->run(cluster);
  }
  return 2;
}

// MPI starts before the options are parsed: the command (the first argument
// that is not an option) says which thread level it needs.
hpcdb::MpiThreads mpi_threads_for(const Commands& commands, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.empty() || arg[0] == '-') continue;
    for (const auto& command : commands) {
      if (command->name() == arg) return command->mpi_threads(std::vector<std::string>(argv + i + 1, argv + argc));
    }
    break;
  }
  return hpcdb::MpiThreads::serialized;
}

}  // namespace

int main(int argc, char** argv) {
  hpcdb::keep_freed_memory();
  const Commands commands = hpcdb::all_commands();
  hpcdb::Cluster cluster(argc, argv, mpi_threads_for(commands, argc, argv));
  hpcdb::buffer_standard_output();
  // A file-size limit (ulimit -f) makes a write fail with EFBIG, reported as
  // any failed output, instead of killing the rank.
  std::signal(SIGXFSZ, SIG_IGN);
  hpcdb::end_on_interruption(cluster.rank() == 0);
  try {
    const int code = run(cluster, commands, argc, argv);
    // Results lost to a full disk or a closed pipe fail the command too.
    hpcdb::run_collectively(cluster.world(), [&] {
      if (cluster.rank() == 0) hpcdb::flush_standard_output();
    });
    return code;
  } catch (const hpcdb::AgreedFailure& e) {
    if (cluster.rank() == 0) hpcdb::write_error_line(std::string("hpcdb: error: ") + e.what());
    return e.exit_code();
  } catch (const hpcdb::UsageError& e) {
    cluster.fail(e.what(), 2);
  } catch (const std::exception& e) {
    cluster.fail(e.what(), 1);
  }
}
