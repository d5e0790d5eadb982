#include "hpcdb/apps/hpcdb/join/join_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "hpcdb/core/statistics.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {
namespace {

using Json = nlohmann::ordered_json;

std::string algorithm_name(JoinAlgorithm algorithm) {
  return algorithm == JoinAlgorithm::radix ? "radix hash" : to_string(algorithm);
}

double tuples_per_second(const JoinResult& r) {
  return r.seconds > 0 ? static_cast<double>(r.inner_tuples + r.outer_tuples) / r.seconds : 0.0;
}

std::string plural(std::uint64_t n) { return n == 1 ? "" : "s"; }

// " in 2 passes (7 + 7)" when the local partitioning takes more than one
// pass, and whether the histogram phase counted the first pass's digits.
std::string local_passes_text(const std::vector<unsigned>& passes, unsigned precounted_bits) {
  std::string text;
  if (passes.size() > 1) text = fmt::format(" in {} passes ({})", passes.size(), fmt::join(passes, " + "));
  if (precounted_bits > 0) text += passes.size() > 1 ? ", the first counted in the histogram" : " counted in the histogram";
  return text;
}

std::string write_path(const JoinRequest& request, const JoinOutcome& outcome) {
  if (request.configs.radix.force_put) return "put";
  return outcome.nodes > 1 ? "shared-memory+put" : "shared-memory";
}

std::string schedule_name(const RadixJoinConfig& c) {
  return c.scheduled ? to_string(c.exchange.schedule) : "streaming";
}

Json sharing_json(const JoinRequest& request, const JoinResult& r) {
  return {{"option", request.configs.radix.share_node_work ? "on" : "off"},
          {"input_chunks", r.sharing.input_chunks},
          {"node_wide_chunks", r.sharing.node_wide},
          {"peer_chunks", r.sharing.peer_chunks},
          {"partitions_shared", r.sharing.partitions_shared},
          {"peer_partitions", r.sharing.peer_partitions}};
}

// "on", "off", or why it is on for part of the work only.
std::string sharing_summary(const JoinRequest& request, const JoinResult& r) {
  if (!request.configs.radix.share_node_work) return "off";
  if (r.sharing.node_wide) return r.sharing.partitions_shared ? "on (input chunks and partitions)" : "on (input chunks)";
  if (r.sharing.partitions_shared) return "on (partitions only: the input fragments are private)";
  return "on, but nothing to share (one rank per node, or private input fragments)";
}

Json cyclo_json(const JoinRequest& request, const JoinResult& r) {
  return {{"presort", r.ring.presort},
          {"chunk_size", r.ring.chunk_bytes},
          {"compression", to_string(request.configs.cyclo.compression)},
          {"compressed", r.ring.compressed},
          {"tuple_bytes", r.ring.tuple_bytes},
          {"key_bits", r.ring.key_bits},
          {"rid_bits", r.ring.rid_bits}};
}

Json broadcast_json(const JoinRequest& request, const JoinResult& r) {
  const BroadcastJoinConfig& b = request.configs.broadcast;
  Json j = {{"transport", to_string(b.transport)},
            {"chunk_size", r.stream.chunk_bytes},
            {"compression", to_string(b.compression)},
            {"compressed", r.stream.compressed},
            {"tuple_bytes", r.stream.tuple_bytes},
            {"key_bits", r.stream.key_bits},
            {"rid_bits", r.stream.rid_bits}};
  if (r.stream.udp) {
    j["udp"] = {{"phase_datagrams", b.udp.phase_packets},
                {"injected_loss", b.udp.loss},
                {"injected_duplicates", b.udp.duplicates},
                {"datagrams", r.stream.datagrams},
                {"resent", r.stream.resent},
                {"dropped_on_purpose", r.stream.dropped_on_purpose},
                {"duplicates_ignored", r.stream.duplicates_seen},
                {"phases", r.stream.phases}};
  } else {
    j["depth"] = b.depth;
    j["chunks"] = r.stream.chunks;
  }
  return j;
}

Json radix_json(const JoinRequest& request, const JoinOutcome& outcome, const JoinResult& r) {
  const RadixJoinConfig& c = request.configs.radix;
  return {{"network_bits", r.radix.network_bits},
          {"local_bits", r.radix.local_bits},
          {"local_passes", r.radix.local_passes},
          {"precounted_local_bits", r.radix.precounted_local_bits},
          {"compression", to_string(c.compression)},
          {"compressed", r.radix.compressed},
          {"tuple_bytes", r.radix.tuple_bytes},
          {"key_bits", r.radix.key_bits},
          {"rid_bits", r.radix.rid_bits},
          {"buffer_size", c.buffer_bytes},
          {"buffers_per_partition", c.buffers_per_partition},
          {"assignment", to_string(c.assignment)},
          {"write_path", write_path(request, outcome)},
          {"schedule", schedule_name(c)},
          {"exchange", c.scheduled ? to_string(c.exchange.transport) : "streaming puts or stores"},
          {"exchange_rounds", r.radix.exchange_rounds},
          {"exchange_waiting_seconds", r.radix.exchange_waiting},
          {"build_splits", r.radix.build_splits},
          {"probe_splits", r.radix.probe_splits},
          {"node_sharing", sharing_json(request, r)}};
}

Json sort_merge_json(const JoinRequest& request, const JoinOutcome& outcome, const JoinResult& r) {
  const SortMergeJoinConfig& c = request.configs.sort_merge;
  return {{"run_length", c.run_length},
          {"longest_run", r.sort_merge.run_length},
          {"merge_fan_in", c.merge_fan_in},
          {"subranges", r.sort_merge.subranges},
          {"send_order", to_string(c.send_order)},
          {"splitters", to_string(c.splitters)},
          {"compression", to_string(c.compression)},
          {"compressed", r.sort_merge.compressed},
          {"tuple_bytes", r.sort_merge.tuple_bytes},
          {"key_bits", r.sort_merge.key_bits},
          {"rid_bits", r.sort_merge.rid_bits},
          {"simd", r.sort_merge.simd},
          {"runs_sent", r.sort_merge.runs_sent},
          {"runs_sorted_by_32bit_keys", r.sort_merge.narrow_key_runs},
          {"merge_levels", r.sort_merge.merge_levels},
          {"write_path", write_path(request, outcome)},
          {"node_sharing", sharing_json(request, r)}};
}

Json config_json(const JoinRequest& request, const JoinOutcome& outcome, const JoinResult& r) {
  switch (request.configs.algorithm) {
    case JoinAlgorithm::cyclo: return cyclo_json(request, r);
    case JoinAlgorithm::broadcast: return broadcast_json(request, r);
    case JoinAlgorithm::radix: return radix_json(request, outcome, r);
    case JoinAlgorithm::sort_merge: break;
  }
  return sort_merge_json(request, outcome, r);
}

Json workload_json(const JoinRequest& request, const JoinOutcome& outcome) {
  const auto optional_text = [](const std::optional<std::string>& text) { return text ? Json(*text) : Json(nullptr); };
  if (const auto* files = std::get_if<RelationFiles>(&request.inputs)) {
    return {{"source", "files"},
            {"input_r", files->inner},
            {"input_s", files->outer},
            {"header", to_string(files->header)},
            {"header_skipped_r", optional_text(outcome.inner_header)},
            {"header_skipped_s", optional_text(outcome.outer_header)}};
  }
  const auto& workload = std::get<WorkloadSpec>(request.inputs);
  return {{"source", "generated"},
          {"zipf", workload.zipf_theta},
          {"selectivity", workload.selectivity},
          {"seed", workload.seed}};
}

Json memory_json(const JoinMemory& m) {
  return {{"peak_bytes_per_rank", m.peak_bytes},
          {"private_bytes", m.private_bytes},
          {"shared_bytes", m.shared_bytes},
          {"input_bytes_per_rank", m.input_bytes},
          {"estimate_bytes_per_rank", m.estimate_bytes},
          {"peak_covers_setup_and_runs_only", m.since_start}};
}

Json model_json(const ModelPrediction& model, const JoinResult& r) {
  Json predicted = Json::object();
  for (const PhasePrediction& p : model.phases) predicted[p.name] = p.seconds;
  return {{"seconds", model.seconds},
          {"network_bound", model.network_bound},
          {"network_shares_cores", model.network_shares_cores},
          {"phases", predicted},
          {"measured_over_model", model.seconds > 0 ? r.seconds / model.seconds : 0.0}};
}

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

std::string input_line(const JoinRequest& request, const JoinOutcome& outcome, const JoinResult& first) {
  if (const auto* files = std::get_if<RelationFiles>(&request.inputs)) {
    return fmt::format("  input : R = {} ({} tuples{}), S = {} ({} tuples{})\n", files->inner,
                       format_grouped(first.inner_tuples), skipped_header_note(outcome.inner_header), files->outer,
                       format_grouped(first.outer_tuples), skipped_header_note(outcome.outer_header));
  }
  const auto& workload = std::get<WorkloadSpec>(request.inputs);
  return fmt::format("  input : generated, |R| = {}, |S| = {}, zipf {}, selectivity {}, seed {}\n",
                     format_grouped(first.inner_tuples), format_grouped(first.outer_tuples), workload.zipf_theta,
                     workload.selectivity, workload.seed);
}

std::string cyclo_plan_line(const JoinOutcome& outcome, const JoinResult& first) {
  const auto ranks = static_cast<std::uint64_t>(outcome.ranks);
  return fmt::format("  plan  : S rotates around {} ranks in parts of up to {} tuples, {}, {} per put, {}-byte tuples{}\n",
                     outcome.ranks, format_grouped((first.outer_tuples + ranks - 1) / ranks),
                     first.ring.presort ? "sorted before they travel" : "sorted by every rank they visit",
                     format_bytes(static_cast<double>(first.ring.chunk_bytes)), first.ring.tuple_bytes,
                     first.ring.compressed ? " (compressed)" : "");
}

std::string broadcast_plan_line(const BroadcastJoinConfig& b, const JoinResult& first) {
  const std::string how =
      first.stream.udp ? fmt::format(" by UDP datagrams in phases of {}", b.udp.phase_packets)
                       : fmt::format(" {}, {} chunk{} ahead",
                                     b.transport == BroadcastTransport::ibcast ? "by MPI_Ibcast" : "along the ring",
                                     b.depth, plural(b.depth));
  return fmt::format("  plan  : every rank's S broadcast once{}, chunks of {}, {}-byte tuples{}\n", how,
                     format_bytes(static_cast<double>(first.stream.chunk_bytes)), first.stream.tuple_bytes,
                     first.stream.compressed ? " (compressed)" : "");
}

std::string radix_plan_line(const JoinRequest& request, const JoinOutcome& outcome, const JoinResult& first) {
  const RadixJoinConfig& c = request.configs.radix;
  const std::string writes = c.scheduled ? fmt::format("local pass, then whole partitions by {}, {} schedule",
                                                       to_string(c.exchange.transport), schedule_name(c))
                                         : write_path(request, outcome) + " writes";
  return fmt::format("  plan  : network bits {}, local bits {}{}, {}-byte tuples{}, {}, {} assignment\n",
                     first.radix.network_bits, first.radix.local_bits,
                     local_passes_text(first.radix.local_passes, first.radix.precounted_local_bits),
                     first.radix.tuple_bytes, first.radix.compressed ? " (compressed)" : "", writes,
                     to_string(c.assignment));
}

std::string sort_merge_plan_line(const JoinRequest& request, const JoinOutcome& outcome, const JoinResult& first) {
  const SortMergeJoinConfig& c = request.configs.sort_merge;
  return fmt::format(
      "  plan  : runs of up to {} tuples, {} key sub-ranges per rank, merge fan-in {}, {} send order, {} splitters, "
      "{}-byte tuples{}, {} sort, {} writes\n",
      first.sort_merge.run_length, first.sort_merge.subranges, c.merge_fan_in, to_string(c.send_order),
      to_string(c.splitters), first.sort_merge.tuple_bytes, first.sort_merge.compressed ? " (compressed)" : "",
      first.sort_merge.simd ? "AVX2" : "scalar", write_path(request, outcome));
}

std::string plan_line(const JoinRequest& request, const JoinOutcome& outcome, const JoinResult& first) {
  switch (request.configs.algorithm) {
    case JoinAlgorithm::cyclo: return cyclo_plan_line(outcome, first);
    case JoinAlgorithm::broadcast: return broadcast_plan_line(request.configs.broadcast, first);
    case JoinAlgorithm::radix: return radix_plan_line(request, outcome, first);
    case JoinAlgorithm::sort_merge: break;
  }
  return sort_merge_plan_line(request, outcome, first);
}

void print_phases(std::ostream& out, const JoinOutcome& outcome, const JoinResult& r) {
  if (outcome.model) {
    fmt::print(out, "  {:<18} {:>9} {:>9} {:>9}\n", "phase", "max s", "mean s", "model s");
    for (const PhaseTime& p : r.phases) {
      fmt::print(out, "  {:<18} {:>9.4f} {:>9.4f} {:>9.4f}\n", p.name, p.max, p.mean, outcome.model->seconds_of(p.name));
    }
    fmt::print(out, "  {:<18} {:>9.4f} {:>9} {:>9.4f}\n", "total", r.seconds, "", outcome.model->seconds);
  } else {
    fmt::print(out, "  {:<18} {:>9} {:>9}\n", "phase", "max s", "mean s");
    for (const PhaseTime& p : r.phases) fmt::print(out, "  {:<18} {:>9.4f} {:>9.4f}\n", p.name, p.max, p.mean);
  }
  fmt::print(out, "  {:<18} {:>9.4f}\n", "imbalance", r.imbalance);
}

// What a run moved and shared, and the skew it met.
void print_run_details(std::ostream& out, const JoinResult& r) {
  fmt::print(out, "  sent to other ranks: {} ({} through {} puts)\n", format_bytes(static_cast<double>(r.bytes_sent)),
             format_bytes(static_cast<double>(r.bytes_put)), r.puts);
  if (r.stream.udp) {
    fmt::print(out, "  UDP: {} datagrams, {} resent, {} dropped on purpose, {} repeats ignored, {} phases\n",
               format_grouped(r.stream.datagrams), format_grouped(r.stream.resent),
               format_grouped(r.stream.dropped_on_purpose), format_grouped(r.stream.duplicates_seen),
               format_grouped(r.stream.phases));
  }
  if (r.sharing.node_wide || r.sharing.partitions_shared) {
    fmt::print(out, "  shared on the node: {} chunks{} done by a rank other than their owner\n",
               format_grouped(r.sharing.peer_chunks),
               r.sharing.partitions_shared
                   ? fmt::format(" and {} partitions or slices", format_grouped(r.sharing.peer_partitions))
                   : "");
  }
  if (r.radix.probe_splits > 0 || r.radix.build_splits > 0) {
    fmt::print(out,
               "  skew: {} oversized partition{} shared by several workers, {} build side{} split into cache-sized "
               "tables\n",
               format_grouped(r.radix.probe_splits), plural(r.radix.probe_splits), format_grouped(r.radix.build_splits),
               plural(r.radix.build_splits));
  }
}

}  // namespace

Json run_to_json(const JoinRequest& request, const JoinOutcome& outcome, unsigned repetition) {
  const JoinResult& r = outcome.runs[repetition - 1];
  Json phases = Json::object();
  for (const PhaseTime& p : r.phases) phases[p.name] = {{"max", p.max}, {"mean", p.mean}};
  Json j = {
      {"algorithm", to_string(request.configs.algorithm)},
      {"repetition", repetition},
      {"ranks", outcome.ranks},
      {"nodes", outcome.nodes},
      {"threads_per_rank", request.threads()},
      {"inner_tuples", r.inner_tuples},
      {"outer_tuples", r.outer_tuples},
      {"matches", r.matches},
      {"checksum", r.checksum},
      {"checksum_hex", fmt::format("0x{:016x}", r.checksum)},
      {"verified", outcome.expected ? Json(outcome.run_matches_expected(r)) : Json(nullptr)},
      {"seconds", r.seconds},
      {"tuples_per_second", tuples_per_second(r)},
      {"setup_seconds", outcome.setup_seconds},
      {"memory", memory_json(outcome.memory)},
      {"bytes_sent", r.bytes_sent},
      {"bytes_put", r.bytes_put},
      {"puts", r.puts},
      {"imbalance", r.imbalance},
      {"phases", phases},
      {"workload", workload_json(request, outcome)},
      {"config", config_json(request, outcome, r)},
  };
  if (outcome.expected) j["expected"] = {{"matches", outcome.expected->matches}, {"checksum", outcome.expected->checksum}};
  if (outcome.payloads && repetition == 1) {
    j["payloads"] = {{"payload_bytes", request.payload_width},
                     {"rows", outcome.payloads->rows},
                     {"fetch_seconds", outcome.payloads->seconds},
                     {"bytes_sent", outcome.payloads->bytes_sent}};
  }
  if (outcome.model) j["model"] = model_json(*outcome.model, r);
  return j;
}

void print_header(std::ostream& out, const JoinRequest& request, const JoinOutcome& outcome) {
  const JoinResult& first = outcome.runs.front();
  const unsigned threads = request.threads();
  fmt::print(out, "hpcdb join: {} join, {} rank{} on {} node{}, {} thread{} per rank\n",
             algorithm_name(request.configs.algorithm), outcome.ranks, plural(outcome.ranks), outcome.nodes,
             plural(outcome.nodes), threads, plural(threads));
  out << input_line(request, outcome, first) << plan_line(request, outcome, first);
  if (request.configs.algorithm == JoinAlgorithm::radix || request.configs.algorithm == JoinAlgorithm::sort_merge) {
    fmt::print(out, "  share : {} input chunks per rank and relation, node sharing {}\n", first.sharing.input_chunks,
               sharing_summary(request, first));
  }
  fmt::print(out, "  setup : {:.3f} s (data, pre-faulted windows and buffers; not part of the join time)\n",
             outcome.setup_seconds);
}

void print_run(std::ostream& out, const JoinOutcome& outcome, unsigned repetition, unsigned repeat) {
  const JoinResult& r = outcome.runs[repetition - 1];
  const char* verified = !outcome.expected                  ? ""
                         : outcome.run_matches_expected(r) ? ", verified"
                                                           : ", VERIFICATION FAILED";
  fmt::print(out, "run {}/{}: {:.4f} s, {:.1f} M tuples/s, {} matches, checksum 0x{:016x}{}\n", repetition, repeat,
             r.seconds, tuples_per_second(r) / 1e6, format_grouped(r.matches), r.checksum, verified);
  print_phases(out, outcome, r);
  print_run_details(out, r);
}

void print_payloads(std::ostream& out, const JoinOutcome& outcome, std::size_t payload_width) {
  const PayloadFetch& p = *outcome.payloads;
  fmt::print(out, "payloads: {} rows fetched their keys and {}-byte payloads in {:.4f} s ({} sent between ranks)\n",
             format_grouped(p.rows), payload_width, p.seconds, format_bytes(static_cast<double>(p.bytes_sent)));
}

void print_summary(std::ostream& out, const JoinOutcome& outcome) {
  std::vector<double> seconds;
  for (const JoinResult& r : outcome.runs) seconds.push_back(r.seconds);
  const auto [fastest, slowest] = std::minmax_element(seconds.begin(), seconds.end());
  const double middle = median(seconds);
  const JoinResult& first = outcome.runs.front();
  const double tuples = static_cast<double>(first.inner_tuples + first.outer_tuples);
  fmt::print(out, "median over {} run{}: {:.4f} s, {:.1f} M tuples/s (min {:.4f} s, max {:.4f} s)\n", seconds.size(),
             plural(seconds.size()), middle, middle > 0 ? tuples / middle / 1e6 : 0.0, *fastest, *slowest);
  const JoinMemory& m = outcome.memory;
  fmt::print(out,
             "memory: peak {} per rank (largest rank: {} private + {} of node-shared memory), {:.2f}x its input of {}; "
             "estimated {}{}\n",
             format_bytes(static_cast<double>(m.peak_bytes)), format_bytes(static_cast<double>(m.private_bytes)),
             format_bytes(static_cast<double>(m.shared_bytes)),
             m.input_bytes > 0 ? static_cast<double>(m.peak_bytes) / static_cast<double>(m.input_bytes) : 0.0,
             format_bytes(static_cast<double>(m.input_bytes)), format_bytes(static_cast<double>(m.estimate_bytes)),
             m.since_start ? "" : " (peak since the process started)");
  if (outcome.expected) {
    fmt::print(out, "verification: {} (reference join: {} matches, checksum 0x{:016x})\n",
               outcome.verified() ? "passed" : "FAILED", format_grouped(outcome.expected->matches),
               outcome.expected->checksum);
  }
}

}  // namespace hpcdb
