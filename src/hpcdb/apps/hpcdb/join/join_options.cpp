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

}  // namespace

void add_join_options(CLI::App& join, JoinOptions& o) {
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
  join.add_option("--repeat", o.repeat, "Run the join this many times and report each run and the median")
      ->capture_default_str();
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
  join.add_option("--payload-bytes", o.payload_bytes,
                  "Payload splitting: give every generated tuple a payload of this many bytes, kept where the tuple "
                  "is; after the join each result pair fetches both tuples' keys and payloads from their ranks, and "
                  "--output writes the joined rows")
      ->capture_default_str();
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
  join.add_option("--calibration", o.calibration,
                  "Show the performance model's prediction next to each phase, with rates from this file "
                  "(written by 'hpcdb calibrate')");
  join.add_option("--json", o.json, "Write results as JSON to FILE, or to standard output with '-'");
  join.add_flag("--verify", o.verify,
                "Check count and checksum against an independent reference join (two-sided exchange, sort)");
  record_scoped_options(join, o);
}

namespace {

void resolve_ring_and_broadcast(JoinOptions& o) {
  const bool keep_pairs = o.radix.keep_pairs;
  CycloJoinConfig& y = o.cyclo;
  y.presort = o.presort == "on";
  y.compression = o.radix.compression;
  y.keep_pairs = keep_pairs;
  if (o.algorithm == "cyclo" && !o.chunk_size.empty()) y.chunk_bytes = parse_bytes(o.chunk_size, "--chunk-size");

  BroadcastJoinConfig& b = o.broadcast;
  b.transport = o.transport == "udp"      ? BroadcastTransport::udp
                : o.transport == "ibcast" ? BroadcastTransport::ibcast
                                          : BroadcastTransport::ring;
  if (o.algorithm == "broadcast" && !o.chunk_size.empty()) b.chunk_bytes = parse_bytes(o.chunk_size, "--chunk-size");
  b.depth = o.depth;
  b.compression = o.radix.compression;
  b.keep_pairs = keep_pairs;
  if (o.udp_port > 65535) throw UsageError("--udp-port must be at most 65535");
  b.udp.port = static_cast<std::uint16_t>(o.udp_port);
  b.udp.address = o.udp_broadcast;
  b.udp.phase_packets = o.udp_phase;
  b.udp.loss = o.udp_loss;
  b.udp.duplicates = o.udp_duplicates;
  b.udp.quiet_ms = o.udp_quiet_ms;
  b.udp.seed = o.seed;
  if ((o.algorithm == "cyclo" || o.algorithm == "broadcast") && o.threads > 1) {
    throw UsageError("--algorithm " + o.algorithm + " runs one worker per rank; use more ranks instead of --threads");
  }
}

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

// Testing aids: --fail-rank, --fail-after and --fail-how (the progress guard's), or an error
// thrown in --fail-phase, in every operator's options.
void resolve_fault(JoinOptions& o, int ranks) {
  if (o.fail_rank < -1) throw UsageError("--fail-rank must be a rank (0 or more), or -1 for none");
  if (o.fail_rank >= ranks) {
    throw UsageError("--fail-rank " + std::to_string(o.fail_rank) + " names no rank: this job has ranks 0 to " +
                     std::to_string(ranks - 1));
  }
  if (!(o.fail_after >= 0 && o.fail_after <= 1e6)) throw UsageError("--fail-after must be 0 to 1000000 s");
  if (o.fail_phase.empty()) return;
  if (o.fail_rank < 0) throw UsageError("--fail-phase needs --fail-rank: the rank that fails in it");
  const std::vector<std::string> phases = phases_of(o.configs());
  if (o.fail_phase != "setup" && std::find(phases.begin(), phases.end(), o.fail_phase) == phases.end()) {
    std::string list = "setup";
    for (const std::string& p : phases) list += ", " + p;
    throw UsageError("--fail-phase must be a phase of this join: " + list);
  }
  const InjectedFault fault{o.fail_rank, o.fail_phase};
  o.radix.fault = o.sort_merge.fault = o.cyclo.fault = o.broadcast.fault = fault;
}

}  // namespace

void resolve(JoinOptions& o, int ranks) {
  if (o.input_r.empty() != o.input_s.empty()) throw UsageError("--input-r and --input-s go together: give both files");
  if (o.repeat < 1) throw UsageError("--repeat must be at least 1");
  o.workload.inner_tuples = parse_count(o.inner, "--inner");
  o.workload.outer_tuples = parse_count(o.outer, "--outer");
  o.workload.zipf_theta = o.zipf;
  o.workload.selectivity = o.selectivity;
  o.workload.seed = o.seed;
  o.workload.gaussian_sigma = o.gaussian;
  o.workload.key_spacing_bits = o.key_spacing;
  if (!o.from_files()) validate(o.workload);
  refuse_ignored_input_options(o);
  refuse_options_of_other_algorithms(o);
  o.csv_header = parse_csv_header(o.header, "--header");

  RadixJoinConfig& c = o.radix;
  c.network_bits = o.network_bits;
  c.local_bits = o.local_bits;
  c.buffer_bytes = parse_bytes(o.buffer_size, "--buffer-size");
  c.buffers_per_partition = o.buffers_per_partition;
  c.assignment = o.assignment == "skew-aware" ? Assignment::skew_aware : Assignment::round_robin;
  c.compression = o.compression == "off" ? Compression::off : Compression::automatic;
  c.threads = o.threads;
  c.force_put = o.force_put;
  c.share_node_work = o.node_sharing == "on";
  c.input_chunks = o.input_chunks;
  c.keep_pairs = !o.output.empty();
  c.scheduled = o.schedule != "streaming";
  if (c.scheduled) c.exchange.schedule = parse_exchange_schedule(o.schedule);
  c.exchange.transport = o.exchange == "messages" ? ExchangeTransport::messages : ExchangeTransport::put;
  c.exchange.chunk_bytes = parse_bytes(o.exchange_chunk, "--exchange-chunk");

  SortMergeJoinConfig& m = o.sort_merge;
  m.run_length = parse_count(o.run_length, "--run-length");
  m.merge_fan_in = o.merge_fan_in;
  m.subranges = o.subranges;
  m.send_order = o.send_order == "natural" ? SendOrder::natural : SendOrder::shifted;
  m.splitters = o.splitters == "sampled" ? Splitters::sampled : Splitters::equal;
  m.compression = c.compression;
  m.threads = c.threads;
  m.force_put = c.force_put;
  m.share_node_work = c.share_node_work;
  m.input_chunks = c.input_chunks;
  m.keep_pairs = c.keep_pairs;

  o.payload_width = parse_bytes(o.payload_bytes, "--payload-bytes");
  if (o.payload_width > 4096) throw UsageError("--payload-bytes must be at most 4096");
  if (o.payload_width > 0 && o.from_files()) {
    throw UsageError("--payload-bytes gives generated tuples payloads; with --input-r/--input-s the tuples have none");
  }
  if (o.payload_width > 0) c.keep_pairs = m.keep_pairs = true;  // the pairs fetch their payloads
  if (!(o.progress_timeout > 0 && o.progress_timeout <= 1e6)) {
    throw UsageError("--progress-timeout must be more than 0 and at most 1000000 s");
  }
  if (o.fail_rank < -1) throw UsageError("--fail-rank must be a rank (0 or more), or -1 for none");
  if (!(o.fail_after >= 0 && o.fail_after <= 1e6)) throw UsageError("--fail-after must be 0 to 1000000 s");
  resolve_ring_and_broadcast(o);
  resolve_fault(o, ranks);
  // The guard's own failures unless an error is to be thrown in a phase.
  const bool guard_fails = o.fail_rank >= 0 && o.fail_phase.empty();
  o.guard.timeout_seconds = o.progress_timeout;
  o.guard.operation = "join";
  o.guard.fail_rank = guard_fails ? o.fail_rank : -1;
  o.guard.fail_after_seconds = o.fail_after;
  o.guard.fail_how = guard_fails ? parse_injected_failure(o.fail_how, "--fail-how") : InjectedFailure::none;
  validate(o.radix);
  validate(o.sort_merge);
  validate(o.cyclo);
  validate(o.broadcast);
}

}  // namespace hpcdb
