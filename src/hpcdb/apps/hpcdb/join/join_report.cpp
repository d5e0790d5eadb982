#include "hpcdb/apps/hpcdb/join/join_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "hpcdb/core/units.hpp"

namespace hpcdb {
namespace {

std::string algorithm_name(const JoinOptions& options) {
  if (options.is_radix()) return "radix hash";
  if (options.is_sort_merge()) return "sort-merge";
  return options.algorithm;  // cyclo, broadcast
}

double tuples_per_second(const JoinResult& r) {
  return r.seconds > 0 ? static_cast<double>(r.inner_tuples + r.outer_tuples) / r.seconds : 0.0;
}

// " in 2 passes (7 + 7)" when the local partitioning takes more than one
// pass, and whether the histogram phase counted the first pass's digits.
std::string local_passes_text(const std::vector<unsigned>& passes, unsigned precounted_bits) {
  std::string text;
  if (passes.size() > 1) text = fmt::format(" in {} passes ({})", passes.size(), fmt::join(passes, " + "));
  if (precounted_bits > 0) text += passes.size() > 1 ? ", the first counted in the histogram" : " counted in the histogram";
  return text;
}

std::string write_path(const JoinOptions& options, const RunContext& context) {
  if (options.force_put) return "put";
  return context.nodes > 1 ? "shared-memory+put" : "shared-memory";
}

nlohmann::ordered_json sharing_json(const JoinOptions& options, const JoinResult& r) {
  return {{"option", options.node_sharing},
          {"input_chunks", r.sharing.input_chunks},
          {"node_wide_chunks", r.sharing.node_wide},
          {"peer_chunks", r.sharing.peer_chunks},
          {"partitions_shared", r.sharing.partitions_shared},
          {"peer_partitions", r.sharing.peer_partitions}};
}

// "on", "off", or why it is on for part of the work only.
std::string sharing_summary(const JoinOptions& options, const JoinResult& r) {
  if (options.node_sharing == "off") return "off";
  if (r.sharing.node_wide) return r.sharing.partitions_shared ? "on (input chunks and partitions)" : "on (input chunks)";
  if (r.sharing.partitions_shared) return "on (partitions only: the input fragments are private)";
  return "on, but nothing to share (one rank per node, or private input fragments)";
}

nlohmann::ordered_json config_json(const JoinOptions& options, const RunContext& context, const JoinResult& r) {
  if (options.algorithm == "cyclo") {
    return {{"presort", r.ring.presort},
            {"chunk_size", r.ring.chunk_bytes},
            {"compression", options.compression},
            {"compressed", r.ring.compressed},
            {"tuple_bytes", r.ring.tuple_bytes},
            {"key_bits", r.ring.key_bits},
            {"rid_bits", r.ring.rid_bits}};
  }
  if (options.algorithm == "broadcast") {
    nlohmann::ordered_json j = {{"transport", options.transport},
                                {"chunk_size", r.stream.chunk_bytes},
                                {"compression", options.compression},
                                {"compressed", r.stream.compressed},
                                {"tuple_bytes", r.stream.tuple_bytes},
                                {"key_bits", r.stream.key_bits},
                                {"rid_bits", r.stream.rid_bits}};
    if (r.stream.udp) {
      j["udp"] = {{"phase_datagrams", options.broadcast.udp.phase_packets},
                  {"injected_loss", options.broadcast.udp.loss},
                  {"injected_duplicates", options.broadcast.udp.duplicates},
                  {"datagrams", r.stream.datagrams},
                  {"resent", r.stream.resent},
                  {"dropped_on_purpose", r.stream.dropped_on_purpose},
                  {"duplicates_ignored", r.stream.duplicates_seen},
                  {"phases", r.stream.phases}};
    } else {
      j["depth"] = options.broadcast.depth;
      j["chunks"] = r.stream.chunks;
    }
    return j;
  }
  if (options.is_radix()) {
    return {{"network_bits", r.radix.network_bits},
            {"local_bits", r.radix.local_bits},
            {"local_passes", r.radix.local_passes},
            {"precounted_local_bits", r.radix.precounted_local_bits},
            {"compression", options.compression},
            {"compressed", r.radix.compressed},
            {"tuple_bytes", r.radix.tuple_bytes},
            {"key_bits", r.radix.key_bits},
            {"rid_bits", r.radix.rid_bits},
            {"buffer_size", options.radix.buffer_bytes},
            {"buffers_per_partition", options.radix.buffers_per_partition},
            {"assignment", options.assignment},
            {"write_path", write_path(options, context)},
            {"schedule", options.schedule},
            {"exchange", options.radix.scheduled ? options.exchange : "streaming puts or stores"},
            {"exchange_rounds", r.radix.exchange_rounds},
            {"exchange_waiting_seconds", r.radix.exchange_waiting},
            {"build_splits", r.radix.build_splits},
            {"probe_splits", r.radix.probe_splits},
            {"node_sharing", sharing_json(options, r)}};
  }
  return {{"run_length", options.sort_merge.run_length},
          {"longest_run", r.sort_merge.run_length},
          {"merge_fan_in", options.sort_merge.merge_fan_in},
          {"subranges", r.sort_merge.subranges},
          {"send_order", options.send_order},
          {"splitters", options.splitters},
          {"compression", options.compression},
          {"compressed", r.sort_merge.compressed},
          {"tuple_bytes", r.sort_merge.tuple_bytes},
          {"key_bits", r.sort_merge.key_bits},
          {"rid_bits", r.sort_merge.rid_bits},
          {"simd", r.sort_merge.simd},
          {"runs_sent", r.sort_merge.runs_sent},
          {"runs_sorted_by_32bit_keys", r.sort_merge.narrow_key_runs},
          {"merge_levels", r.sort_merge.merge_levels},
          {"write_path", write_path(options, context)},
          {"node_sharing", sharing_json(options, r)}};
}

}  // namespace

bool matches_expected(const RunContext& context, const JoinResult& result) {
  return context.expected && context.expected->matches == result.matches && context.expected->checksum == result.checksum;
}

nlohmann::ordered_json run_to_json(const JoinOptions& options, const RunContext& context, const JoinResult& r, unsigned repetition) {
  nlohmann::ordered_json phases = nlohmann::ordered_json::object();
  for (const PhaseTime& p : r.phases) phases[p.name] = {{"max", p.max}, {"mean", p.mean}};
  nlohmann::ordered_json workload;
  if (options.from_files()) {
    workload = {{"source", "files"}, {"input_r", options.input_r}, {"input_s", options.input_s},
                {"header", options.header},
                {"header_skipped_r", context.inner_header ? nlohmann::ordered_json(*context.inner_header) : nullptr},
                {"header_skipped_s", context.outer_header ? nlohmann::ordered_json(*context.outer_header) : nullptr}};
  } else {
    workload = {{"source", "generated"},
                {"zipf", options.workload.zipf_theta},
                {"selectivity", options.workload.selectivity},
                {"seed", options.workload.seed}};
  }
  nlohmann::ordered_json j = {
      {"algorithm", options.algorithm},
      {"repetition", repetition},
      {"ranks", context.ranks},
      {"nodes", context.nodes},
      {"threads_per_rank", options.radix.threads},
      {"inner_tuples", r.inner_tuples},
      {"outer_tuples", r.outer_tuples},
      {"matches", r.matches},
      {"checksum", r.checksum},
      {"checksum_hex", fmt::format("0x{:016x}", r.checksum)},
      {"verified", context.expected ? nlohmann::ordered_json(matches_expected(context, r)) : nlohmann::ordered_json(nullptr)},
      {"seconds", r.seconds},
      {"tuples_per_second", tuples_per_second(r)},
      {"setup_seconds", context.setup_seconds},
      {"memory", {{"peak_bytes_per_rank", context.memory.peak_bytes},
                  {"private_bytes", context.memory.private_bytes},
                  {"shared_bytes", context.memory.shared_bytes},
                  {"input_bytes_per_rank", context.memory.input_bytes},
                  {"estimate_bytes_per_rank", context.memory.estimate_bytes},
                  {"peak_covers_setup_and_runs_only", context.memory.since_start}}},
      {"bytes_sent", r.bytes_sent},
      {"bytes_put", r.bytes_put},
      {"puts", r.puts},
      {"imbalance", r.imbalance},
      {"phases", phases},
      {"workload", workload},
      {"config", config_json(options, context, r)},
  };
  if (context.expected) j["expected"] = {{"matches", context.expected->matches}, {"checksum", context.expected->checksum}};
  if (options.payload_width > 0 && repetition == 1) {
    j["payloads"] = {{"payload_bytes", options.payload_width},
                     {"rows", context.payload_rows},
                     {"fetch_seconds", context.payload_seconds},
                     {"bytes_sent", context.payload_bytes_sent}};
  }
  if (context.model) {
    nlohmann::ordered_json predicted = nlohmann::ordered_json::object();
    for (const PhasePrediction& p : context.model->phases) predicted[p.name] = p.seconds;
    j["model"] = {{"seconds", context.model->seconds},
                  {"network_bound", context.model->network_bound},
                  {"network_shares_cores", context.model->network_shares_cores},
                  {"phases", predicted},
                  {"measured_over_model", context.model->seconds > 0 ? r.seconds / context.model->seconds : 0.0}};
  }
  return j;
}

namespace {
std::string skipped_header_note(const std::optional<std::string>& header) {
  if (!header) return "";
  constexpr std::size_t kShown = 40;
  std::string shown;
  for (char c : header->substr(0, kShown)) {
    const auto u = static_cast<unsigned char>(c);
    shown += u >= 0x20 && u < 0x7F ? std::string(1, c) : fmt::format("\\x{:02X}", u);
  }
  return fmt::format(", first line '{}{}' skipped as a header", shown, header->size() > kShown ? "..." : "");
}
}  // namespace

void print_header(std::ostream& out, const JoinOptions& options, const RunContext& context, const JoinResult& first) {
  fmt::print(out, "hpcdb join: {} join, {} rank{} on {} node{}, {} thread{} per rank\n", algorithm_name(options),
             context.ranks,
             context.ranks == 1 ? "" : "s", context.nodes, context.nodes == 1 ? "" : "s", options.radix.threads,
             options.radix.threads == 1 ? "" : "s");
  if (options.from_files()) {
    fmt::print(out, "  input : R = {} ({} tuples{}), S = {} ({} tuples{})\n", options.input_r,
               format_grouped(first.inner_tuples), skipped_header_note(context.inner_header), options.input_s,
               format_grouped(first.outer_tuples), skipped_header_note(context.outer_header));
  } else {
    fmt::print(out, "  input : generated, |R| = {}, |S| = {}, zipf {}, selectivity {}, seed {}\n",
               format_grouped(first.inner_tuples), format_grouped(first.outer_tuples), options.workload.zipf_theta,
               options.workload.selectivity, options.workload.seed);
  }
  if (options.algorithm == "cyclo") {
    fmt::print(out, "  plan  : S rotates around {} ranks in parts of up to {} tuples, {}, {} per put, {}-byte tuples{}\n",
               context.ranks, format_grouped((first.outer_tuples + static_cast<std::uint64_t>(context.ranks) - 1) / static_cast<std::uint64_t>(context.ranks)),
               first.ring.presort ? "sorted before they travel" : "sorted by every rank they visit",
               format_bytes(static_cast<double>(first.ring.chunk_bytes)), first.ring.tuple_bytes,
               first.ring.compressed ? " (compressed)" : "");
  } else if (options.algorithm == "broadcast") {
    fmt::print(out, "  plan  : every rank's S broadcast once{}, chunks of {}, {}-byte tuples{}\n",
               first.stream.udp ? fmt::format(" by UDP datagrams in phases of {}", options.broadcast.udp.phase_packets)
                                : fmt::format(" {}, {} chunk{} ahead",
                                              options.broadcast.transport == BroadcastTransport::ibcast
                                                  ? "by MPI_Ibcast"
                                                  : "along the ring",
                                              options.broadcast.depth,
                                              options.broadcast.depth == 1 ? "" : "s"),
               format_bytes(static_cast<double>(first.stream.chunk_bytes)), first.stream.tuple_bytes,
               first.stream.compressed ? " (compressed)" : "");
  } else if (options.is_radix()) {
    fmt::print(out, "  plan  : network bits {}, local bits {}{}, {}-byte tuples{}, {}, {} assignment\n",
               first.radix.network_bits, first.radix.local_bits, local_passes_text(first.radix.local_passes, first.radix.precounted_local_bits),
               first.radix.tuple_bytes,
               first.radix.compressed ? " (compressed)" : "",
               options.radix.scheduled
                   ? fmt::format("local pass, then whole partitions by {}, {} schedule", options.exchange, options.schedule)
                   : write_path(options, context) + " writes",
               options.assignment);
  } else {
    fmt::print(out, "  plan  : runs of up to {} tuples, {} key sub-ranges per rank, merge fan-in {}, {} send order, {} splitters, {}-byte tuples{}, {} sort, {} writes\n",
               first.sort_merge.run_length, first.sort_merge.subranges, options.sort_merge.merge_fan_in, options.send_order, options.splitters,
               first.sort_merge.tuple_bytes, first.sort_merge.compressed ? " (compressed)" : "",
               first.sort_merge.simd ? "AVX2" : "scalar", write_path(options, context));
  }
  if (options.is_radix() || options.is_sort_merge()) {
    fmt::print(out, "  share : {} input chunks per rank and relation, node sharing {}\n", first.sharing.input_chunks,
               sharing_summary(options, first));
  }
  fmt::print(out, "  setup : {:.3f} s (data, pre-faulted windows and buffers; not part of the join time)\n",
             context.setup_seconds);
}

void print_run(std::ostream& out, const RunContext& context, const JoinResult& r, unsigned repetition, unsigned repeat) {
  fmt::print(out, "run {}/{}: {:.4f} s, {:.1f} M tuples/s, {} matches, checksum 0x{:016x}{}\n", repetition, repeat,
             r.seconds, tuples_per_second(r) / 1e6, format_grouped(r.matches), r.checksum,
             context.expected ? (matches_expected(context, r) ? ", verified" : ", VERIFICATION FAILED") : "");
  if (context.model) {
    fmt::print(out, "  {:<18} {:>9} {:>9} {:>9}\n", "phase", "max s", "mean s", "model s");
    for (const PhaseTime& p : r.phases) {
      fmt::print(out, "  {:<18} {:>9.4f} {:>9.4f} {:>9.4f}\n", p.name, p.max, p.mean, context.model->seconds_of(p.name));
    }
    fmt::print(out, "  {:<18} {:>9.4f} {:>9} {:>9.4f}\n", "total", r.seconds, "", context.model->seconds);
  } else {
    fmt::print(out, "  {:<18} {:>9} {:>9}\n", "phase", "max s", "mean s");
    for (const PhaseTime& p : r.phases) fmt::print(out, "  {:<18} {:>9.4f} {:>9.4f}\n", p.name, p.max, p.mean);
  }
  fmt::print(out, "  {:<18} {:>9.4f}\n", "imbalance", r.imbalance);
  fmt::print(out, "  sent to other ranks: {} ({} through {} puts)\n", format_bytes(static_cast<double>(r.bytes_sent)),
             format_bytes(static_cast<double>(r.bytes_put)), r.puts);
  if (r.stream.udp) {
    fmt::print(out, "  UDP: {} datagrams, {} resent, {} dropped on purpose, {} repeats ignored, {} phases\n",
               format_grouped(r.stream.datagrams), format_grouped(r.stream.resent), format_grouped(r.stream.dropped_on_purpose),
               format_grouped(r.stream.duplicates_seen), format_grouped(r.stream.phases));
  }
  if (r.sharing.node_wide || r.sharing.partitions_shared) {
    fmt::print(out, "  shared on the node: {} chunks{} done by a rank other than their owner\n", format_grouped(r.sharing.peer_chunks),
               r.sharing.partitions_shared ? fmt::format(" and {} partitions or slices", format_grouped(r.sharing.peer_partitions)) : "");
  }
  if (r.radix.probe_splits > 0 || r.radix.build_splits > 0) {
    fmt::print(out, "  skew: {} oversized partition{} shared by several workers, {} build side{} split into cache-sized tables\n",
               format_grouped(r.radix.probe_splits), r.radix.probe_splits == 1 ? "" : "s", format_grouped(r.radix.build_splits),
               r.radix.build_splits == 1 ? "" : "s");
  }
}

void print_payloads(std::ostream& out, const RunContext& context, std::size_t payload_width) {
  fmt::print(out, "payloads: {} rows fetched their keys and {}-byte payloads in {:.4f} s ({} sent between ranks)\n",
             format_grouped(context.payload_rows), payload_width, context.payload_seconds,
             format_bytes(static_cast<double>(context.payload_bytes_sent)));
}

void print_summary(std::ostream& out, const RunContext& context, const std::vector<JoinResult>& results) {
  std::vector<double> seconds;
  for (const JoinResult& r : results) seconds.push_back(r.seconds);
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  const double median = n % 2 == 1 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
  const double tuples = static_cast<double>(results.front().inner_tuples + results.front().outer_tuples);
  fmt::print(out, "median over {} run{}: {:.4f} s, {:.1f} M tuples/s (min {:.4f} s, max {:.4f} s)\n", n,
             n == 1 ? "" : "s", median, median > 0 ? tuples / median / 1e6 : 0.0, seconds.front(), seconds.back());
  const JoinMemory& m = context.memory;
  fmt::print(out, "memory: peak {} per rank (largest rank: {} private + {} of node-shared memory), {:.2f}x its input of {}; "
                  "estimated {}{}\n",
             format_bytes(static_cast<double>(m.peak_bytes)), format_bytes(static_cast<double>(m.private_bytes)),
             format_bytes(static_cast<double>(m.shared_bytes)),
             m.input_bytes > 0 ? static_cast<double>(m.peak_bytes) / static_cast<double>(m.input_bytes) : 0.0,
             format_bytes(static_cast<double>(m.input_bytes)), format_bytes(static_cast<double>(m.estimate_bytes)),
             m.since_start ? "" : " (peak since the process started)");
  if (context.expected) {
    const bool all = std::all_of(results.begin(), results.end(), [&](const JoinResult& r) { return matches_expected(context, r); });
    fmt::print(out, "verification: {} (reference join: {} matches, checksum 0x{:016x})\n", all ? "passed" : "FAILED",
               format_grouped(context.expected->matches), context.expected->checksum);
  }
}

}  // namespace hpcdb
