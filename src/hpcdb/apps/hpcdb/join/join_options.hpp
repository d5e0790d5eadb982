#pragma once
// The options of `hpcdb join`, as the command line gives them.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hpcdb/api/join.hpp"

namespace hpcdb {

struct JoinOptions {
  std::string algorithm = "radix";
  std::string inner = "16M";
  std::string outer = "16M";
  double zipf = 0.0;
  double selectivity = 1.0;
  std::uint64_t seed = 42;
  std::string input_r;
  std::string input_s;
  std::string header = "auto";  // CSV inputs' first line: auto, yes or no
  std::string output;
  unsigned network_bits = 0;
  unsigned local_bits = 0;
  std::string buffer_size = "64KiB";
  unsigned buffers_per_partition = 2;
  std::string assignment = "round-robin";
  std::string compression = "auto";
  unsigned threads = 1;
  bool force_put = false;
  std::string node_sharing = "on";
  unsigned input_chunks = 0;
  unsigned repeat = 1;
  std::string json;
  bool verify = false;
  std::string run_length = "16384";
  unsigned merge_fan_in = 16;
  unsigned subranges = 0;
  std::string send_order = "shifted";
  std::string splitters = "equal";
  std::string calibration;  // rates for the model column
  double gaussian = 0.0;     // > 0: Gaussian foreign keys, deviation as a fraction of |R|
  unsigned key_spacing = 0;  // keys times 2^bits (8: all congruent modulo 2^8)
  std::string presort = "on";        // cyclo
  std::string chunk_size;            // cyclo and broadcast ("" = the algorithm's default)
  std::string transport = "ring";    // broadcast: ring, ibcast or udp
  unsigned depth = 2;                // broadcast (ring, ibcast): chunks in flight
  unsigned udp_port = 0;
  std::string udp_broadcast;
  unsigned udp_phase = 64;
  double udp_loss = 0.0;
  double udp_duplicates = 0.0;
  int udp_quiet_ms = 20;
  std::string schedule = "streaming";  // radix: streaming, or a schedule of the staged exchange
  std::string exchange = "puts";       // radix, scheduled: puts or messages
  std::string exchange_chunk = "1MiB";
  std::string payload_bytes = "0";   // payload splitting: bytes of payload per tuple
  double progress_timeout = 5;       // seconds a rank may be silent (5x: without progress) before the job ends
  // Testing aids: this rank fails --fail-after seconds into the join as
  // --fail-how says, or, with --fail-phase, throws an error in that phase.
  int fail_rank = -1;
  double fail_after = 0;
  std::string fail_how = "stop";
  std::string fail_phase;

  // Options given on the command line that shape generated data only (refused with input files).
  std::vector<std::string> generator_options_given;
  bool header_given = false;
  // Options given on the command line that only some algorithms (or modes) take.
  std::vector<std::string> scoped_options_given;

  bool from_files() const { return !input_r.empty(); }
};

// Declares the options on the `join` subcommand.
void add_join_options(CLI::App& join, JoinOptions& options);

// Turns text into the library's request (api/join.hpp), refusing options
// that the data or the algorithm at hand would ignore; throws UsageError.
// The request itself is checked where it runs (validate(JoinRequest)).
JoinRequest to_request(const JoinOptions& options);

}  // namespace hpcdb
