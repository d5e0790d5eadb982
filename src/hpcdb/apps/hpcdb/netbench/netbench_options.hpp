#pragma once
// The options of `hpcdb netbench` and the requests they make
// (api/netbench.hpp): the messaging benchmarks, or with --all-to-all the
// schedules of an all-to-all exchange on raw data.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "hpcdb/api/netbench.hpp"
#include "hpcdb/apps/hpcdb/message_layer_options.hpp"

namespace hpcdb {

struct NetbenchOptions {
  std::string tests = "bandwidth,latency,mixed,broadcast,priority";
  std::string transports = "mpi,ring,two-sided,hybrid";
  std::string sizes = "4:4Mi:4";
  std::string latency_sizes = "8:32Ki:4";
  unsigned window = 64;
  unsigned iterations = 100;
  std::string bytes_per_size = "64Mi";
  unsigned rounds = 3;
  std::string mixed_sizes = "256,64Ki";
  std::string flood_sizes = "4Ki,256Ki";
  std::string ping_size = "64";
  double duration = 0.5;
  std::string json;
  MessageLayerOptions layer;
  bool tests_given = false;  // --tests or --transports on the command line
  // --all-to-all: the data-distribution schedules alone (net/bench/all_to_all_benchmark.hpp).
  bool all_to_all = false;
  std::string per_peer = "64Mi";
  std::string schedules = "synchronized,unsynchronized,random";
  std::string exchange = "messages";
  std::string exchange_chunk = "1Mi";
  double bandwidth_gbit = 0;
};

// "A:B" (powers of two from A to B), "A:B:F" (factor F) or "A,B,C"; suffixes
// as in counts. UsageError naming `what`.
std::vector<std::size_t> parse_size_list(const std::string& text, const std::string& what);

void add_netbench_options(CLI::App& netbench, NetbenchOptions& options);
// UsageError for values that do not parse (the layer's options too).
NetbenchRequest to_netbench_request(const NetbenchOptions& options);
// UsageError for values that do not parse, and with --tests or --transports.
AllToAllRequest to_all_to_all_request(const NetbenchOptions& options);

}  // namespace hpcdb
