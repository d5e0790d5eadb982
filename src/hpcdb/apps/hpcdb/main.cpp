// hpcdb: a distributed in-memory query and transaction engine on MPI. Run it under mpirun
// (or as a single process): `mpirun -np 2 hpcdb join --inner 32M --outer 32M`.
#include <CLI/CLI.hpp>

#include <csignal>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "hpcdb/apps/hpcdb/calibrate_command.hpp"
#include "hpcdb/apps/hpcdb/command_line.hpp"
#include "hpcdb/apps/hpcdb/generate_command.hpp"
#include "hpcdb/apps/hpcdb/model_command.hpp"
#include "hpcdb/apps/hpcdb/netbench_command.hpp"

#include "hpcdb/apps/hpcdb/shuffle_command.hpp"
#include "hpcdb/apps/hpcdb/ssb_command.hpp"
#include "hpcdb/apps/hpcdb/txn_command.hpp"
#include "hpcdb/apps/hpcdb/join_command.hpp"
#include "hpcdb/apps/hpcdb/join_options.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/interruption.hpp"
#include "hpcdb/core/standard_output.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/cluster.hpp"

namespace {

int run(const hpcdb::Cluster& cluster, int argc, char** argv) {
  CLI::App app{"hpcdb: a distributed, in-memory query and transaction engine built on MPI.\n"
               "Run under mpirun (one rank per core, or fewer ranks with --threads), e.g.\n"
               "  mpirun -np 2 hpcdb join --algorithm radix --inner 32M --outer 32M --repeat 5\n",
               "hpcdb"};
  app.require_subcommand(1);
  hpcdb::JoinOptions join_options;
  CLI::App* join = app.add_subcommand(
      "join",
      "Distributed equi-join of R (inner) and S (outer) on their 64-bit keys: the radix hash join, whose network pass "
      "writes straight into exactly-sized remote windows (one-sided RMA, or shared memory on a node), the "
      "sort-merge join, whose runs are sorted and shipped one by one, the cyclo join (S rotates around the ring of "
      "ranks) or the broadcast join (every rank's S goes once to all). Prints per-phase times, throughput and a "
      "checksum of the result pairs.");
  hpcdb::add_join_options(*join, join_options);
  hpcdb::GenerateOptions generate_options;
  CLI::App* generate = app.add_subcommand(
      "generate", "Write the join workload (the data 'hpcdb join' generates for the same options) to files.");
  hpcdb::add_generate_options(*generate, generate_options);
  hpcdb::CalibrateOptions calibrate_options;
  CLI::App* calibrate = app.add_subcommand(
      "calibrate", "Measure the performance model's rates on this machine with the joins' own kernels "
                   "(and, with 2 or more ranks, rank-to-rank bandwidth and latency); writes a calibration file.");
  hpcdb::add_calibrate_options(*calibrate, calibrate_options);
  hpcdb::ModelOptions model_options;
  CLI::App* model = app.add_subcommand(
      "model", "Predict a join's time per phase with the analytical model (thesis Eqs. 3.1-3.20) from a calibration "
               "file: compute- or network-bound regime and the optimal worker threads per machine.");
  hpcdb::add_model_options(*model, model_options);
  hpcdb::TxnOptions txn_options;
  CLI::App* txn = app.add_subcommand(
      "txn", "Run transactions through the distributed lock manager: lock agents own ranges of locks and the records "
             "they guard, transaction agents take locks one by one (six multi-granularity modes, strict 2PL, "
             "bounded-wait/no-wait/wait-die deadlock handling), read and write records one-sidedly and commit with 2PC "
             "when they wrote at several lock agents. Prints throughput, aborts, latencies and the model.");
  hpcdb::add_txn_options(*txn, txn_options);
  hpcdb::NetbenchOptions netbench_options;
  CLI::App* netbench = app.add_subcommand(
      "netbench", "Measure rank-to-rank messaging OSU-style, plain MPI next to the message layer's paths (one-sided "
                  "ring, two-sided, hybrid): bandwidth over message sizes, ping-pong latency, two sizes at once, "
                  "one-to-many, and latency-sensitive round trips under a best-effort flood. Tables and JSON.");
  hpcdb::add_netbench_options(*netbench, netbench_options);

  hpcdb::ShuffleOptions shuffle_options;
  CLI::App* shuffle = app.add_subcommand(
      "shuffle", "Exchange rows between all ranks by key hash (the shuffle operator), with one or every transport "
                 "design: MPI alltoallv, streaming MPI two-sided and one-sided, the message layer, UCX tagged and "
                 "active messages. Prints rows/s, bytes and messages per second per rank, registered memory and "
                 "endpoints per design, and with --calibration the model's time next to each.");
  hpcdb::add_shuffle_options(*shuffle, shuffle_options);
  hpcdb::SsbOptions ssb_options;
  CLI::App* ssb = app.add_subcommand(
      "ssb", "The Star Schema Benchmark on the decoupled storage engine: storage ranks hold the tables and answer "
             "every queued query with one shared scan per batch cycle; query-engine ranks run closed-loop clients "
             "through shared hash joins and grouped aggregation. Prints queries/hour and latencies per flight, "
             "point-query latencies, scans and bytes moved.");
  hpcdb::add_ssb_options(*ssb, ssb_options);
  app.set_version_flag("--version", [] { return hpcdb::version_text(); });
  hpcdb::refuse_wrapped_and_non_finite_numbers(app);

  const std::vector<std::string> args(argv + 1, argv + argc);
  std::vector<std::string> commands;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    commands.push_back(command->get_name());
  }
  const auto usage_error = [&](const std::string& message) {
    if (cluster.rank() == 0) {
      hpcdb::write_error_line("hpcdb: error: " + message + "\nRun 'hpcdb --help' or 'hpcdb COMMAND --help' for the options.");
    }
    return 2;
  };
  if (const auto message = hpcdb::unknown_command_message(args, commands)) return usage_error(*message);
  if (const auto message = hpcdb::repeated_option_message(args)) return usage_error(*message);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    if (cluster.rank() == 0) return app.exit(e);
    return 0;
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }
  if (join->parsed()) return hpcdb::run_join_command(cluster, join_options);
  if (generate->parsed()) return hpcdb::run_generate_command(cluster, generate_options);
  if (calibrate->parsed()) return hpcdb::run_calibrate_command(cluster, calibrate_options);
  if (model->parsed()) return hpcdb::run_model_command(cluster, model_options);
  if (txn->parsed()) return hpcdb::run_txn_command(cluster, txn_options);
  if (netbench->parsed()) return hpcdb::run_netbench_command(cluster, netbench_options);

  if (shuffle->parsed()) return hpcdb::run_shuffle_command(cluster, shuffle_options);
  if (ssb->parsed()) return hpcdb::run_ssb_command(cluster, ssb_options);
  return 2;
}

bool has_flag(int argc, char** argv, std::string_view flag) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i] == flag) return true;
  }
  return false;
}

// Whether a command line gives --net-threads a value other than 0.
bool asks_for_network_threads(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--net-threads=")) return arg.substr(14) != "0";
    if (arg == "--net-threads" && i + 1 < argc) return std::string_view(argv[i + 1]) != "0";
  }
  return false;
}

// MPI starts before the options are parsed: the subcommand (the first
// argument that is not an option) says which thread level it needs. The
// shuffle needs concurrent MPI calls only when its message layer runs
// network threads.
hpcdb::MpiThreads mpi_threads_for(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.empty() || arg[0] == '-') continue;
    if (arg == "ssb") return hpcdb::MpiThreads::multiple;
    // The all-to-all schedules alone need no threads beside the caller, and
    // their one-sided puts over TCP need a level below "multiple".
    if (arg == "netbench") return has_flag(argc, argv, "--all-to-all") ? hpcdb::MpiThreads::serialized : hpcdb::MpiThreads::multiple;
    if (arg == "shuffle" && asks_for_network_threads(argc, argv)) return hpcdb::MpiThreads::multiple;
    return hpcdb::MpiThreads::serialized;
  }
  return hpcdb::MpiThreads::serialized;
}

}  // namespace

int main(int argc, char** argv) {
  hpcdb::Cluster cluster(argc, argv, mpi_threads_for(argc, argv));
  hpcdb::buffer_standard_output();
  // A file-size limit (ulimit -f) makes a write fail with EFBIG, reported as
  // any failed output, instead of killing the rank.
  std::signal(SIGXFSZ, SIG_IGN);
  hpcdb::end_on_interruption(cluster.rank() == 0);
  try {
    const int code = run(cluster, argc, argv);
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
