#include "hpcdb/apps/hpcdb/txn/txn_command.hpp"

#include <fmt/format.h>

#include <iostream>

#include "hpcdb/api/txn.hpp"
#include "hpcdb/apps/hpcdb/json_output.hpp"
#include "hpcdb/apps/hpcdb/txn/txn_report.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/net/agreement.hpp"


namespace hpcdb {

void add_txn_options(CLI::App& txn, TxnOptions& o) {
  txn.add_option("--workload", o.workload,
                 "Workload: synthetic (the thesis's: N locks per transaction, uniform modes), tpcc (TPC-C's five "
                 "transactions on its nine tables, one partition per warehouse) or trace (replays the lock traces of "
                 "--trace-dir without data access, as the thesis did)")
      ->capture_default_str();
  txn.add_option("--transport", o.transport,
                 "How agents exchange messages: one-sided (mailboxes with a notification queue, written with "
                 "shared-memory stores and atomics on a node and MPI RMA across nodes), one-sided-rma (MPI RMA "
                 "everywhere, records too) or two-sided (MPI_Send into pre-posted receives)")
      ->capture_default_str();
  txn.add_option("--lock-agents", o.lock_agents, "Ranks that run lock agents; the others run transactions")
      ->capture_default_str();
  txn.add_option("--placement", o.placement,
                 "Where lock agents run: spread (dealt round-robin over the nodes) or first (the first ranks)")
      ->capture_default_str();
  txn.add_option("--locks-per-agent", o.locks_per_agent, "Locks (and records) each lock agent owns, e.g. 1M")
      ->capture_default_str();
  txn.add_option("--cc", o.cc,
                 "Deadlock handling: bounded-wait (a request waits at most --lock-timeout, then the transaction "
                 "aborts), no-wait (denied at once if not grantable) or wait-die (only older transactions wait)")
      ->capture_default_str();
  txn.add_option("--lock-timeout", o.lock_timeout_ms, "Bounded wait, in milliseconds")->capture_default_str();
  txn.add_option("--isolation", o.isolation,
                 "serializable (strict 2PL) or read-committed (read locks released right after the read)")
      ->capture_default_str();
  txn.add_option("--locks-per-txn", o.locks_per_txn, "Distinct locks each transaction takes")->capture_default_str();
  txn.add_option("--warehouses", o.warehouses,
                 "TPC-C: warehouses, dealt in equal ranges to the lock agents (default: one per lock agent)");
  txn.add_option("--mix", o.mix,
                 "TPC-C: standard (New-Order 45%, Payment 43%, Order-Status, Delivery, Stock-Level 4% each) or trace "
                 "(10:10:1:1:1, the deck behind the thesis's lock traces)")
      ->capture_default_str();
  txn.add_option("--order-capacity", o.order_capacity,
                 "TPC-C: new orders each district's append areas hold beyond the initial 3,000 (0: room for 500 per "
                 "second and district, or for all of a counted run's New-Orders)")
      ->capture_default_str();
  txn.add_option("--trace-out", o.trace_out,
                 "TPC-C: write every committed transaction's granted locks to DIR, one file per warehouse "
                 "(wh000001.csv, ...: lines trx_num,lock_id,mode,trx_name, lock ids dense per warehouse, their count "
                 "in max-locks-per-wh.meta: the thesis artifact's format); DIR is created if missing");
  txn.add_option("--trace-dir", o.trace_dir, "--workload trace: the directory of lock trace files to replay (wh000001.csv, ... and "
                 "max-locks-per-wh.meta, as --trace-out writes them and the thesis's traces come)");
  txn.add_option("--remote-prob", o.remote_probability,
                 "Probability that a lock belongs to a lock agent on another node")
      ->capture_default_str();
  txn.add_option("--duration", o.duration, "Seconds each transaction agent runs")->capture_default_str();
  txn.add_option("--transactions", o.transactions,
                 "Run exactly this many transactions per transaction agent instead of --duration (0: use --duration)")
      ->capture_default_str();
  txn.add_option("--retries", o.retries,
                 "Attempts after the first for a transaction that aborted (a denied lock or a no vote); every attempt "
                 "counts in the abort rate")
      ->capture_default_str();
  txn.add_option("--backoff", o.backoff_ms,
                 "Mean pause before the first retry, in milliseconds (random, doubling with each further retry)")
      ->capture_default_str();
  txn.add_option("--seed", o.seed, "Random seed of the workload")->capture_default_str();
  txn.add_flag("--no-data", o.no_data, "Take locks only; do not read or write the records they guard");
  txn.add_flag("--check", o.check,
               "Record every committed transaction's reads and writes and check the history afterwards "
               "(serializability, or no dirty reads under read committed); exit 1 on a violation");
  txn.add_option("--vote-no-prob", o.vote_no_probability,
                 "Fault injection: probability that a 2PC participant votes no (the transaction then rolls back)")
      ->capture_default_str();
  txn.add_option("--vote-timeout", o.vote_timeout_ms, "Milliseconds a coordinator waits for 2PC votes")
      ->capture_default_str();
  txn.add_option("--reply-timeout", o.reply_timeout_s,
                 "Seconds an agent waits for a peer before declaring it dead and ending the job")
      ->capture_default_str();
  txn.add_option("--pings", o.pings, "Round trips per transaction agent to calibrate the model's message time")
      ->capture_default_str();
  txn.add_option("--fail-rank", o.fail_rank,
                 "Testing aid: this rank fails (--fail-how) --fail-after seconds into the run (or --fail-during)");
  txn.add_option("--fail-after", o.fail_after, "Testing aid: see --fail-rank")->capture_default_str();
  txn.add_option("--fail-how", o.fail_how,
                 "Testing aid: kill (the rank dies), stop (SIGSTOP, as a frozen node) or hang (alive, never answering)")
      ->check(CLI::IsMember({"kill", "stop", "hang"}))
      ->capture_default_str();
  txn.add_option("--fail-during", o.fail_during,
                 "Testing aid: where --fail-rank fails: start-up (before the data is loaded), run (--fail-after "
                 "seconds in) or finish (before the results are gathered)")
      ->capture_default_str();
  txn.add_option("--json", o.json, "Write the results as JSON to FILE, or to standard output with '-'");
}

namespace {

// A time option must lie in [low, high] (low excluded unless `zero_allowed`):
// beyond that it is a typo or an overflow of the engine's nanosecond clocks,
// which would end a run at once or never.
void require_time(double value, bool zero_allowed, double high, const std::string& option, const std::string& unit) {
  const bool low_ok = zero_allowed ? value >= 0 : value > 0;
  if (low_ok && value <= high) return;
  throw UsageError(fmt::format("{} must be {} and at most {:.0f} {}, not {:g}", option,
                               zero_allowed ? "0 or more" : "more than 0", high, unit, value));
}

}  // namespace

// Turns text and units into the config; the engine checks what the config
// itself must satisfy (roles, workload, --check with record access).
TxnEngineConfig resolve(const TxnOptions& o) {
  TxnEngineConfig c;
  c.transport = parse_transport_kind(o.transport);
  c.lock_agents = o.lock_agents;
  c.placement = parse_agent_placement(o.placement);
  c.workload = parse_workload_kind(o.workload);
  c.locks_per_agent = parse_count(o.locks_per_agent, "--locks-per-agent");
  c.warehouses = o.warehouses;
  c.mix = parse_tpcc_mix(o.mix);
  c.order_capacity = parse_count(o.order_capacity, "--order-capacity");
  c.trace_out_dir = o.trace_out;
  c.trace_dir = o.trace_dir;
  if (!o.trace_dir.empty() && c.workload != WorkloadKind::trace) throw UsageError("--trace-dir goes with --workload trace");
  c.policy = parse_deadlock_policy(o.cc);
  require_time(o.lock_timeout_ms, false, 1e7, "--lock-timeout", "ms");
  c.lock_timeout_ns = static_cast<std::uint64_t>(o.lock_timeout_ms * 1e6);
  c.isolation = parse_isolation_level(o.isolation);
  c.locks_per_txn = o.locks_per_txn;
  if (o.locks_per_txn < 1 || o.locks_per_txn > 1000) throw UsageError("--locks-per-txn must be between 1 and 1000");
  c.remote_probability = o.remote_probability;
  c.transactions_per_agent = parse_count(o.transactions, "--transactions");
  if (!(o.remote_probability >= 0 && o.remote_probability <= 1)) throw UsageError("--remote-prob must be in [0, 1]");
  if (c.transactions_per_agent == 0) require_time(o.duration, false, 1e6, "--duration", "s (11.6 days)");
  c.duration_seconds = o.duration;
  if (o.retries < 0) throw UsageError("--retries must not be negative");
  c.retries = o.retries;
  require_time(o.backoff_ms, true, 60000, "--backoff", "ms");
  c.backoff_ns = static_cast<std::uint64_t>(o.backoff_ms * 1e6);
  c.seed = o.seed;
  c.access_data = !o.no_data;
  c.record_history = o.check;
  if (!(o.vote_no_probability >= 0 && o.vote_no_probability <= 1)) throw UsageError("--vote-no-prob must be in [0, 1]");
  c.vote_no_probability = o.vote_no_probability;
  require_time(o.vote_timeout_ms, false, 1e7, "--vote-timeout", "ms");
  c.vote_timeout_ns = static_cast<std::uint64_t>(o.vote_timeout_ms * 1e6);
  require_time(o.reply_timeout_s, false, 1e6, "--reply-timeout", "s");
  c.reply_timeout_ns = static_cast<std::uint64_t>(o.reply_timeout_s * 1e9);
  if (o.pings < 0) throw UsageError("--pings must not be negative");
  c.calibration_pings = o.pings;
  if (o.fail_rank < -1) throw UsageError("--fail-rank must be a rank (0 or more), or -1 for none");
  require_time(o.fail_after, true, 1e6, "--fail-after", "s");
  c.failure.rank = o.fail_rank;
  c.failure.mode = parse_failure_mode(o.fail_how, "--fail-how");
  c.failure.at = failure_point_name(parse_failure_point(o.fail_during));
  c.failure.after_seconds = o.fail_after;
  return c;
}

int run_txn_command(const Cluster& cluster, const TxnOptions& options) {
  TxnRequest request;
  run_collectively(cluster.world(), [&] { request = {resolve(options), options.json}; });
  const TxnRunResult result = run_transactions(cluster, request);
  // Rank 0 reports; a failed output ends every rank.
  run_collectively(cluster.world(), [&] {
    if (cluster.rank() != 0) return;
    std::ostream& text = options.json == "-" ? std::cerr : std::cout;
    text << txn_report_text(options, request.engine, result);
    if (!options.json.empty()) write_json(options.json, txn_report_json(options, request.engine, result));
  });
  if (cluster.rank() != 0) return 0;  // rank 0 fails the job on a bad history
  if (!result.ok()) return 1;
  return 0;
}

}  // namespace hpcdb
