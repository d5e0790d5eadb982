#pragma once
// One command of the hpcdb program (join, shuffle, txn, ...): its name and
// description for --help, its options, the MPI thread level it needs, and
// how it runs. A command turns text into the request of its library entry
// point (src/hpcdb/api/), calls it, and formats the result; nothing more.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

class Command {
 public:
  virtual ~Command() = default;

  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // Declares the options on the command's subcommand, bound to the
  // command's own storage (CLI11 fills it while parsing).
  virtual void add_options(CLI::App& subcommand) = 0;
  // MPI starts before the options are parsed: the thread level the command
  // needs, judged from the raw arguments after the command's name.
  virtual MpiThreads mpi_threads(const std::vector<std::string>& /*args*/) const { return MpiThreads::serialized; }
  // Collective: runs with the parsed options; returns the exit code.
  virtual int run(const Cluster& cluster) = 0;
};

// Every command, in the order --help lists them.
std::vector<std::unique_ptr<Command>> all_commands();

}  // namespace hpcdb
