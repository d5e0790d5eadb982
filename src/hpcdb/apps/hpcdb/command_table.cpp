// The commands of the hpcdb program: one table, in the order --help lists them.
#include <string_view>

#include "hpcdb/apps/hpcdb/calibrate/calibrate_command.hpp"
#include "hpcdb/apps/hpcdb/command.hpp"
#include "hpcdb/apps/hpcdb/generate/generate_command.hpp"
#include "hpcdb/apps/hpcdb/join/join_command.hpp"
#include "hpcdb/apps/hpcdb/model/model_command.hpp"
#include "hpcdb/apps/hpcdb/netbench/netbench_command.hpp"
#include "hpcdb/apps/hpcdb/shuffle/shuffle_command.hpp"
#include "hpcdb/apps/hpcdb/ssb/ssb_command.hpp"
#include "hpcdb/apps/hpcdb/txn/txn_command.hpp"

namespace hpcdb {
namespace {

// A command whose options fill one struct: declared by `Add`, run by `Run`.
template <class Options>
class OptionsCommand final : public Command {
 public:
  using Add = void (*)(CLI::App&, Options&);
  using Run = int (*)(const Cluster&, Options&);
  using Threads = MpiThreads (*)(const std::vector<std::string>&);

  OptionsCommand(std::string name, std::string description, Add add, Run run, Threads threads = nullptr)
      : name_(std::move(name)), description_(std::move(description)), add_(add), run_(run), threads_(threads) {}

  std::string name() const override { return name_; }
  std::string description() const override { return description_; }
  void add_options(CLI::App& subcommand) override { add_(subcommand, options_); }
  MpiThreads mpi_threads(const std::vector<std::string>& args) const override {
    return threads_ ? threads_(args) : MpiThreads::serialized;
  }
  int run(const Cluster& cluster) override { return run_(cluster, options_); }

 private:
  std::string name_, description_;
  Add add_;
  Run run_;
  Threads threads_;
  Options options_;
};

template <class Options>
std::unique_ptr<Command> command(std::string name, std::string description, typename OptionsCommand<Options>::Add add,
                                 typename OptionsCommand<Options>::Run run,
                                 typename OptionsCommand<Options>::Threads threads = nullptr) {
  return std::make_unique<OptionsCommand<Options>>(std::move(name), std::move(description), add, run, threads);
}

bool has_argument(const std::vector<std::string>& args, std::string_view flag) {
  for (const std::string& arg : args) {
    if (arg == flag) return true;
  }
  return false;
}

// Whether the arguments give --net-threads a value other than 0.
bool asks_for_network_threads(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg.starts_with("--net-threads=")) return arg.substr(14) != "0";
    if (arg == "--net-threads" && i + 1 < args.size()) return args[i + 1] != "0";
  }
  return false;
}

}  // namespace

std::vector<std::unique_ptr<Command>> all_commands() {
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(command<JoinOptions>(
      "join",
      "Distributed equi-join of R (inner) and S (outer) on their 64-bit keys: the radix hash join, whose network pass "
      "writes straight into exactly-sized remote windows (one-sided RMA, or shared memory on a node), the "
      "sort-merge join, whose runs are sorted and shipped one by one, the cyclo join (S rotates around the ring of "
      "ranks) or the broadcast join (every rank's S goes once to all). Prints per-phase times, throughput and a "
      "checksum of the result pairs.",
      add_join_options, [](const Cluster& c, JoinOptions& o) { return run_join_command(c, o); }));
  commands.push_back(command<GenerateOptions>(
      "generate", "Write the join workload (the data 'hpcdb join' generates for the same options) to files.",
      add_generate_options, [](const Cluster& c, GenerateOptions& o) { return run_generate_command(c, o); }));
  commands.push_back(command<CalibrateOptions>(
      "calibrate",
      "Measure the performance model's rates on this machine with the joins' own kernels "
      "(and, with 2 or more ranks, rank-to-rank bandwidth and latency); writes a calibration file.",
      add_calibrate_options, [](const Cluster& c, CalibrateOptions& o) { return run_calibrate_command(c, o); }));
  commands.push_back(command<ModelOptions>(
      "model",
      "Predict a join's time per phase with the analytical model (thesis Eqs. 3.1-3.20) from a calibration "
      "file: compute- or network-bound regime and the optimal worker threads per machine.",
      add_model_options, [](const Cluster& c, ModelOptions& o) { return run_model_command(c, o); }));
  commands.push_back(command<TxnOptions>(
      "txn",
      "Run transactions through the distributed lock manager: lock agents own ranges of locks and the records "
      "they guard, transaction agents take locks one by one (six multi-granularity modes, strict 2PL, "
      "bounded-wait/no-wait/wait-die deadlock handling), read and write records one-sidedly and commit with 2PC "
      "when they wrote at several lock agents. Prints throughput, aborts, latencies and the model.",
      add_txn_options, [](const Cluster& c, TxnOptions& o) { return run_txn_command(c, o); }));
  commands.push_back(command<NetbenchOptions>(
      "netbench",
      "Measure rank-to-rank messaging OSU-style, plain MPI next to the message layer's paths (one-sided "
      "ring, two-sided, hybrid): bandwidth over message sizes, ping-pong latency, two sizes at once, "
      "one-to-many, and latency-sensitive round trips under a best-effort flood. Tables and JSON.",
      add_netbench_options, [](const Cluster& c, NetbenchOptions& o) { return run_netbench_command(c, o); },
      // The all-to-all schedules alone need no threads beside the caller, and
      // their one-sided puts over TCP need a level below "multiple".
      [](const std::vector<std::string>& args) {
        return has_argument(args, "--all-to-all") ? MpiThreads::serialized : MpiThreads::multiple;
      }));
  commands.push_back(command<ShuffleOptions>(
      "shuffle",
      "Exchange rows between all ranks by key hash (the shuffle operator), with one or every transport "
      "design: MPI alltoallv, streaming MPI two-sided and one-sided, the message layer, UCX tagged and "
      "active messages. Prints rows/s, bytes and messages per second per rank, registered memory and "
      "endpoints per design, and with --calibration the model's time next to each.",
      add_shuffle_options, [](const Cluster& c, ShuffleOptions& o) { return run_shuffle_command(c, o); },
      // Concurrent MPI calls only when the message layer runs network threads.
      [](const std::vector<std::string>& args) {
        return asks_for_network_threads(args) ? MpiThreads::multiple : MpiThreads::serialized;
      }));
  commands.push_back(command<SsbOptions>(
      "ssb",
      "The Star Schema Benchmark on the decoupled storage engine: storage ranks hold the tables and answer "
      "every queued query with one shared scan per batch cycle; query-engine ranks run closed-loop clients "
      "through shared hash joins and grouped aggregation. Prints queries/hour and latencies per flight, "
      "point-query latencies, scans and bytes moved.",
      add_ssb_options, [](const Cluster& c, SsbOptions& o) { return run_ssb_command(c, o); },
      [](const std::vector<std::string>&) { return MpiThreads::multiple; }));
  return commands;
}

}  // namespace hpcdb
