#include "hpcdb/apps/hpcdb/join/join_options.hpp"

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {

namespace {

// Records that an option shaping generated data was given, so that it is
// refused rather than ignored when the data comes from files.
CLI::Option* generator_option(CLI::Option* option, JoinOptions& o) {
  return option->each([&o, name = option->get_name()](const std::string&) { o.generator_options_given.push_back(name); });
}

// The algorithms that take an option; options not named here apply to all.
struct OptionScope {
  const char* name;
  std::vector<std::string> algorithms;
};

const std::vector<OptionScope>& option_scopes() {
  static const std::vector<OptionScope> scopes = {
      {"--network-bits", {"radix"}},
      {"--local-bits", {"radix"}},
      {"--buffer-size", {"radix"}},
      {"--buffers-per-partition", {"radix"}},
      {"--assignment", {"radix"}},
      {"--schedule", {"radix"}},
      {"--exchange", {"radix"}},
      {"--exchange-chunk", {"radix"}},
      {"--run-length", {"sort-merge"}},
      {"--merge-fan-in", {"sort-merge"}},
      {"--subranges", {"sort-merge"}},
      {"--send-order", {"sort-merge"}},
      {"--splitters", {"sort-merge"}},
      {"--force-put", {"radix", "sort-merge"}},
      {"--node-sharing", {"radix", "sort-merge"}},
      {"--input-chunks", {"radix", "sort-merge"}},
      {"--presort", {"cyclo"}},
      {"--chunk-size", {"cyclo", "broadcast"}},
      {"--transport", {"broadcast"}},
      {"--depth", {"broadcast"}},
      {"--udp-port", {"broadcast"}},
      {"--udp-broadcast", {"broadcast"}},
      {"--udp-phase", {"broadcast"}},
      {"--udp-loss", {"broadcast"}},
      {"--udp-duplicates", {"broadcast"}},
      {"--udp-quiet-ms", {"broadcast"}},
  };
  return scopes;
}

// Records the options of option_scopes() that the command line gives.
void record_scoped_options(CLI::App& join, JoinOptions& o) {
  for (const OptionScope& scope : option_scopes()) {
    join.get_option(scope.name)->each([&o, name = std::string(scope.name)](const std::string&) {
      o.scoped_options_given.push_back(name);
    });
  }
}

// The algorithm, and the generated workload.
void add_workload_options(CLI::App& join, JoinOptions& o) {
  join.add_option("--algorithm", o.algorithm,
                  "Join algorithm: 'radix' (radix hash join, one-sided network partitioning), 'sort-merge', "
                  "'cyclo' (R stays, S rotates around the ring of ranks) or 'broadcast' (every rank's S goes once "
                  "to all ranks)")
      ->check(CLI::IsMember({"radix", "sort-merge", "cyclo", "broadcast"}))
      ->capture_default_str();
  generator_option(join.add_option("--inner", o.inner,
                  "Tuples of the inner (build) relation R, over all ranks; suffixes K/M/G are powers of ten, "
                  "Ki/Mi/Gi powers of two")
      ->capture_default_str(), o);
  generator_option(join.add_option("--outer", o.outer, "Tuples of the outer (probe) relation S, over all ranks")->capture_default_str(), o);
  generator_option(join.add_option("--zipf", o.zipf, "Zipf skew of the outer foreign keys (0 = uniform; e.g. 1.05, 1.2)")
      ->capture_default_str(), o);
  generator_option(join.add_option("--selectivity", o.selectivity, "Fraction of outer tuples that find a match, in [0, 1]")
      ->capture_default_str(), o);
  generator_option(join.add_option("--gaussian", o.gaussian,
                  "Gaussian foreign keys: normal around |R|/2 with this deviation as a fraction of |R| (e.g. 0.1)")
      ->capture_default_str(), o);
  generator_option(join.add_option("--key-spacing", o.key_spacing,
                  "Multiply every generated key by 2^BITS (8: all keys congruent modulo 2^8, adversarial for "
                  "partitioning on the low bits)")
      ->capture_default_str(), o);
  generator_option(join.add_option("--seed", o.seed, "Seed of the data generator (same data for any number of ranks)")
      ->capture_default_str(), o);
}

// Inputs from files, outputs, runs and checks.
void add_input_output_options(CLI::App& join, JoinOptions& o) {
  join.add_option("--input-r", o.input_r,
                  "Read R from this file instead of generating it: binary little-endian 16-byte <key u64, rid u64> "
                  "records, or CSV 'key,rid' lines if the name ends in .csv");
  join.add_option("--input-s", o.input_s, "Read S from this file (same formats as --input-r)");
  join.add_option("--header", o.header,
                  "CSV inputs: whether the first line is a header: 'auto' (skipped only when it clearly is one, two "
                  "column names such as 'key,rid'; the summary says so), 'yes' (always skipped) or 'no' (always data)")
      ->check(CLI::IsMember({"auto", "yes", "no"}))
      ->each([&o](const std::string&) { o.header_given = true; })
      ->capture_default_str();
  join.add_option("--output", o.output,
                  "Write the matching <rid_r, rid_s> pairs to this file (CSV if it ends in .csv, else binary)");
  join.add_option("--repeat", o.repeat, "Run the join this many times and report each run and the median")
      ->capture_default_str();
  join.add_option("--payload-bytes", o.payload_bytes,
                  "Payload splitting: give every generated tuple a payload of this many bytes, kept where the tuple "
                  "is; after the join each result pair fetches both tuples' keys and payloads from their ranks, and "
                  "--output writes the joined rows")
      ->capture_default_str();
  join.add_option("--calibration", o.calibration,
                  "Show the performance model's prediction next to each phase, with rates from this file "
                  "(written by 'hpcdb calibrate')");
  join.add_option("--json", o.json, "Write results as JSON to FILE, or to standard output with '-'");
  join.add_flag("--verify", o.verify,
                "Check count and checksum against an independent reference join (two-sided exchange, sort)");
}

// The radix join (and the options it shares with the sort-merge join).
void add_partitioning_options(CLI::App& join, JoinOptions& o) {
  join.add_option("--network-bits", o.network_bits, "Radix bits of the network partitioning pass (0 = automatic)")
      ->capture_default_str();
  join.add_option("--local-bits", o.local_bits, "Radix bits of the local partitioning pass (0 = automatic)")
      ->capture_default_str();
  join.add_option("--buffer-size", o.buffer_size, "Bytes per one-sided send buffer (multiple of 64)")
      ->capture_default_str();
  join.add_option("--buffers-per-partition", o.buffers_per_partition, "Send buffers per remote partition (>= 1)")
      ->capture_default_str();
  join.add_option("--assignment", o.assignment, "Partition-to-rank assignment")
      ->check(CLI::IsMember({"round-robin", "skew-aware"}))
      ->capture_default_str();
  join.add_option("--compression", o.compression, "Compress tuples to 8 bytes when key and rid bits allow")
      ->check(CLI::IsMember({"auto", "off"}))
      ->capture_default_str();
  join.add_option("--threads", o.threads, "Worker threads per rank")->capture_default_str();
  join.add_flag("--force-put", o.force_put,
                "Send every remote partition with MPI one-sided puts, also to ranks on the same node "
                "(default: write co-located ranks' windows directly through shared memory)");
  join.add_option("--node-sharing", o.node_sharing,
                  "Let the ranks of a node share their passes over the input (in chunks) and, in the radix join, "
                  "join each other's partitions: a worker takes its own rank's work first, then helps the others, "
                  "so that a slower core does not hold up its node ('off': each rank works on its own data)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  join.add_option("--input-chunks", o.input_chunks,
                  "Chunks per rank fragment and relation, the unit of work of the passes over the input "
                  "(0 = about 2^20 tuples each, at most 64, at least one per thread)")
      ->capture_default_str();
  join.add_option("--schedule", o.schedule,
                  "radix: 'streaming' (partitions leave as send buffers fill, overlapped with partitioning), or "
                  "partition locally first and then ship whole partitions 'synchronized' (rounds: every rank sends "
                  "to rank+k and receives from rank-k, barrier after each round, so no two senders share a "
                  "receiver), 'unsynchronized' (same order, no barriers) or 'random' (chunks to random ranks)")
      ->check(CLI::IsMember({"streaming", "synchronized", "unsynchronized", "random"}))
      ->capture_default_str();
  join.add_option("--exchange", o.exchange,
                  "radix with a schedule: ship partitions by one-sided 'puts' or two-sided 'messages' (as the 2012 "
                  "radix join did over TCP)")
      ->check(CLI::IsMember({"puts", "messages"}))
      ->capture_default_str();
  join.add_option("--exchange-chunk", o.exchange_chunk, "radix with a schedule: bytes per put or message")
      ->capture_default_str();
}

// The sort-merge join.
void add_sort_merge_options(CLI::App& join, JoinOptions& o) {
  join.add_option("--run-length", o.run_length,
                  "sort-merge: tuples per sorted run (rounded up to a multiple of 8, whole cache lines)")->capture_default_str();
  join.add_option("--merge-fan-in", o.merge_fan_in, "sort-merge: runs merged at once")->capture_default_str();
  join.add_option("--subranges", o.subranges,
                  "sort-merge: key sub-ranges per rank, partitioned in the same pass and merged apart, so that "
                  "fewer merge levels are needed (1 = one range per rank as in the thesis; 0 = chosen so that each "
                  "sender's share of a sub-range is about one run, or half a run when the ranks of a node share work)")
      ->capture_default_str();
  join.add_option("--send-order", o.send_order,
                  "sort-merge: 'shifted' (rank i sends to rank i+1 first, then cyclically) or 'natural' (rank 0 first)")
      ->check(CLI::IsMember({"shifted", "natural"}))
      ->capture_default_str();
  join.add_option("--splitters", o.splitters,
                  "sort-merge: key ranges of equal width ('equal', for dense keys) or from sampled splitters "
                  "('sampled', balanced for any key distribution)")
      ->check(CLI::IsMember({"equal", "sampled"}))
      ->capture_default_str();
}

// The ring (cyclo) and broadcast joins.
void add_ring_and_broadcast_options(CLI::App& join, JoinOptions& o) {
  join.add_option("--presort", o.presort,
                  "cyclo: sort each S fragment once before it travels ('on'), or send it unsorted and let every "
                  "rank sort each visiting part ('off': no up-front sort, more sorting on every rank)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  join.add_option("--chunk-size", o.chunk_size,
                  "cyclo: bytes per one-sided put of a travelling part (default 4MiB); broadcast: bytes per "
                  "broadcast chunk, or per joined batch of datagrams with UDP (default 1MiB)");
  join.add_option("--transport", o.transport,
                  "broadcast: 'ring' (pipelined chunks forwarded along the ring of ranks: every link carries "
                  "every chunk once), 'ibcast' (pipelined MPI_Ibcast of each chunk: the owner's link may carry it "
                  "once per rank) or 'udp' (real UDP broadcast on the ranks' network segment, numbered datagrams, "
                  "lost ones asked for and resent)")
      ->check(CLI::IsMember({"ring", "ibcast", "udp"}))
      ->capture_default_str();
  join.add_option("--depth", o.depth, "broadcast (ring, ibcast): chunks in flight ahead of the one being joined")
      ->capture_default_str();
  join.add_option("--udp-port", o.udp_port, "broadcast (udp): UDP port (0 = a free port found by rank 0)")
      ->capture_default_str();
  join.add_option("--udp-broadcast", o.udp_broadcast,
                  "broadcast (udp): the broadcast address (default: 127.255.255.255 on one node, else the first "
                  "interface that can broadcast)");
  join.add_option("--udp-phase", o.udp_phase, "broadcast (udp): datagrams per phase between synchronization steps")
      ->capture_default_str();
  join.add_option("--udp-loss", o.udp_loss, "broadcast (udp): inject loss: probability that a datagram is not sent")
      ->capture_default_str();
  join.add_option("--udp-duplicates", o.udp_duplicates,
                  "broadcast (udp): inject repeats: probability that a datagram is sent twice")
      ->capture_default_str();
  join.add_option("--udp-quiet-ms", o.udp_quiet_ms,
                  "broadcast (udp): a receiver reports missing datagrams after this long without one")
      ->capture_default_str();
}

// The progress guard and its testing aids.
void add_guard_options(CLI::App& join, JoinOptions& o) {
  join.add_option("--progress-timeout", o.progress_timeout,
                  "Seconds a rank may give no sign of life (stopped, its node frozen), and five times that without "
                  "progress while the others wait for it (a hang), before every rank ends with a message naming it")
      ->capture_default_str();
  join.add_option("--fail-rank", o.fail_rank,
                  "Testing aid: this rank fails --fail-after seconds into the join as --fail-how says, or, with "
                  "--fail-phase, throws an error in that phase");
  join.add_option("--fail-after", o.fail_after, "Testing aid: see --fail-rank")->capture_default_str();
  join.add_option("--fail-how", o.fail_how,
                  "Testing aid: stop (SIGSTOP to itself), hang (stops answering, its threads alive) or kill")
      ->check(CLI::IsMember({"stop", "hang", "kill"}))
      ->capture_default_str();
  join.add_option("--fail-phase", o.fail_phase,
                  "Testing aid: --fail-rank throws an error in this phase of the join's report (in a worker thread "
                  "when the phase runs several), or in 'setup', instead of failing as --fail-how says");
}

}  // namespace

void add_join_options(CLI::App& join, JoinOptions& o) {
  add_workload_options(join, o);
  add_input_output_options(join, o);
  add_partitioning_options(join, o);
  add_sort_merge_options(join, o);
  add_ring_and_broadcast_options(join, o);
  add_guard_options(join, o);
  record_scoped_options(join, o);
}

namespace {

// Options that would be silently ignored with the data at hand.
void refuse_ignored_input_options(const JoinOptions& o) {
  const bool udp_injection = o.transport == "udp" && (o.udp_loss > 0 || o.udp_duplicates > 0);
  if (o.from_files()) {
    for (const std::string& name : o.generator_options_given) {
      if (name == "--seed" && udp_injection) continue;  // it also seeds the injected UDP loss
      throw UsageError(name + " shapes generated data, but R and S come from --input-r/--input-s; leave it out");
    }
  } else if (o.header_given) {
    throw UsageError("--header applies to CSV input files (--input-r/--input-s); the data here is generated");
  }
  if (o.from_files() && o.header_given && format_for_path(o.input_r) != FileFormat::csv &&
      format_for_path(o.input_s) != FileFormat::csv) {
    throw UsageError("--header applies to CSV inputs (names ending in .csv), but '" + o.input_r + "' and '" +
                     o.input_s + "' are binary");
  }
}

// Options of another algorithm, or of another mode of this one, which the join would ignore.
void refuse_options_of_other_algorithms(const JoinOptions& o) {
  for (const std::string& name : o.scoped_options_given) {
    const auto scope = std::find_if(option_scopes().begin(), option_scopes().end(),
                                    [&](const OptionScope& s) { return s.name == name; });
    const std::vector<std::string>& takers = scope->algorithms;
    if (std::find(takers.begin(), takers.end(), o.algorithm) == takers.end()) {
      std::string list;
      for (const std::string& a : takers) list += (list.empty() ? "" : " or ") + a;
      throw UsageError(name + " applies to --algorithm " + list + ", not " + o.algorithm + "; leave it out");
    }
    const bool exchange_option = name == "--exchange" || name == "--exchange-chunk";
    if (exchange_option && o.schedule == "streaming") {
      throw UsageError(name + " applies to a scheduled exchange: give it a --schedule (synchronized, unsynchronized "
                       "or random); the default streaming radix join ships its buffers by puts as they fill");
    }
    if (name.rfind("--udp-", 0) == 0 && o.transport != "udp") {
      throw UsageError(name + " applies to --transport udp, not " + o.transport);
    }
    if (name == "--depth" && o.transport == "udp") {
      throw UsageError("--depth applies to --transport ring or ibcast; UDP sends in phases of --udp-phase datagrams");
    }
  }
}

std::variant<WorkloadSpec, RelationFiles> inputs_of(const JoinOptions& o) {
  if (o.input_r.empty() != o.input_s.empty()) throw UsageError("--input-r and --input-s go together: give both files");
  WorkloadSpec workload;
  workload.inner_tuples = parse_count(o.inner, "--inner");
  workload.outer_tuples = parse_count(o.outer, "--outer");
  workload.zipf_theta = o.zipf;
  workload.selectivity = o.selectivity;
  workload.seed = o.seed;
  workload.gaussian_sigma = o.gaussian;
  workload.key_spacing_bits = o.key_spacing;
  const CsvHeader header = parse_csv_header(o.header, "--header");
  if (o.from_files()) return RelationFiles{o.input_r, o.input_s, header};
  return workload;
}

// What every operator takes alike: compression, the phase failure (testing aid).
void set_basics(const JoinOptions& o, JoinBasics& basics) {
  basics.compression = parse_compression(o.compression);
  if (!o.fail_phase.empty()) basics.failure = {o.fail_rank, FailureMode::error, o.fail_phase};
}

RadixJoinConfig radix_config(const JoinOptions& o) {
  RadixJoinConfig c;
  set_basics(o, c);
  c.network_bits = o.network_bits;
  c.local_bits = o.local_bits;
  c.buffer_bytes = parse_bytes(o.buffer_size, "--buffer-size");
  c.buffers_per_partition = o.buffers_per_partition;
  c.assignment = parse_assignment(o.assignment);
  c.threads = o.threads;
  c.force_put = o.force_put;
  c.share_node_work = o.node_sharing == "on";
  c.input_chunks = o.input_chunks;
  c.scheduled = o.schedule != "streaming";
  if (c.scheduled) c.exchange.schedule = parse_exchange_schedule(o.schedule);
  c.exchange.transport = o.exchange == "messages" ? ExchangeTransport::messages : ExchangeTransport::put;
  c.exchange.chunk_bytes = parse_bytes(o.exchange_chunk, "--exchange-chunk");
  return c;
}

SortMergeJoinConfig sort_merge_config(const JoinOptions& o) {
  SortMergeJoinConfig m;
  set_basics(o, m);
  m.run_length = parse_count(o.run_length, "--run-length");
  m.merge_fan_in = o.merge_fan_in;
  m.subranges = o.subranges;
  m.send_order = parse_send_order(o.send_order);
  m.splitters = parse_splitters(o.splitters);
  m.threads = o.threads;
  m.force_put = o.force_put;
  m.share_node_work = o.node_sharing == "on";
  m.input_chunks = o.input_chunks;
  return m;
}

CycloJoinConfig cyclo_config(const JoinOptions& o) {
  CycloJoinConfig y;
  set_basics(o, y);
  y.presort = o.presort == "on";
  if (o.algorithm == "cyclo" && !o.chunk_size.empty()) y.chunk_bytes = parse_bytes(o.chunk_size, "--chunk-size");
  return y;
}

BroadcastJoinConfig broadcast_config(const JoinOptions& o) {
  BroadcastJoinConfig b;
  set_basics(o, b);
  b.transport = parse_broadcast_transport(o.transport);
  if (o.algorithm == "broadcast" && !o.chunk_size.empty()) b.chunk_bytes = parse_bytes(o.chunk_size, "--chunk-size");
  b.depth = o.depth;
  if (o.udp_port > 65535) throw UsageError("--udp-port must be at most 65535");
  b.udp.port = static_cast<std::uint16_t>(o.udp_port);
  b.udp.address = o.udp_broadcast;
  b.udp.phase_packets = o.udp_phase;
  b.udp.loss = o.udp_loss;
  b.udp.duplicates = o.udp_duplicates;
  b.udp.quiet_ms = o.udp_quiet_ms;
  b.udp.seed = o.seed;
  return b;
}

// The progress guard, and its testing aid unless an error is to be thrown in a phase.
ProgressGuardConfig guard_config(const JoinOptions& o) {
  if (!o.fail_phase.empty() && o.fail_rank < 0) throw UsageError("--fail-phase needs --fail-rank: the rank that fails in it");
  ProgressGuardConfig guard;
  guard.timeout_seconds = o.progress_timeout;
  guard.operation = "join";
  if (o.fail_rank >= 0 && o.fail_phase.empty()) {
    guard.failure = {o.fail_rank, parse_failure_mode(o.fail_how, "--fail-how"), "", o.fail_after};
  } else {
    guard.failure.rank = o.fail_rank;  // checked as a rank of the job all the same
    guard.failure.after_seconds = o.fail_after;
  }
  return guard;
}

}  // namespace

JoinRequest to_request(const JoinOptions& o) {
  JoinRequest request;
  request.inputs = inputs_of(o);
  refuse_ignored_input_options(o);
  refuse_options_of_other_algorithms(o);
  request.configs = {parse_join_algorithm(o.algorithm), radix_config(o), sort_merge_config(o), cyclo_config(o),
                     broadcast_config(o)};
  request.repeat = o.repeat;
  request.verify = o.verify;
  request.payload_width = parse_bytes(o.payload_bytes, "--payload-bytes");
  request.output = o.output;
  request.report_file = o.json;
  request.calibration = o.calibration;
  request.guard = guard_config(o);
  return request;
}

}  // namespace hpcdb
