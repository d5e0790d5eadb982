#include "hpcdb/apps/hpcdb/ssb/ssb_options.hpp"

#include <algorithm>
#include <sstream>
#include <thread>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/data/ssb_calendar.hpp"
#include "hpcdb/data/ssb_csv.hpp"
#include "hpcdb/data/ssb_scale.hpp"
#include "hpcdb/storage/ssb_tables.hpp"

namespace hpcdb {
namespace {

std::vector<ssb::QueryName> parse_query_list(const std::string& text) {
  std::vector<ssb::QueryName> names;
  std::istringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (!item.empty()) names.push_back(ssb::parse_query_name(item));
  }
  return names;
}

// What point queries on `table` look up and update: keys 1..N of its key
// index (orders: lines 1-7 of every order), and one column that no SSB query
// reads, set to values from its own range.
ssb::PointWorkload point_workload(ssb::TableId table, const ssb::Scale& scale) {
  using namespace ssb;
  PointWorkload p;
  switch (table) {
    case TableId::customer:
      p.keys = scale.customers, p.update_column = c::mktsegment, p.update_high = 4;
      p.projection = {c::custkey, c::city, c::nation, c::region, c::mktsegment};
      break;
    case TableId::supplier:
      p.keys = scale.suppliers, p.updatable = false;
      p.projection = {s::suppkey, s::city, s::nation, s::region};
      break;
    case TableId::part:
      p.keys = scale.parts, p.update_column = p::size, p.update_low = 1, p.update_high = 50;
      p.projection = {p::partkey, p::mfgr, p::category, p::brand1, p::size};
      break;
    case TableId::date:
      p.keys = kDays, p.updatable = false;
      p.projection = {d::datekey, d::year, d::yearmonthnum, d::weeknuminyear};
      break;
    case TableId::lineorder:
      p.keys = scale.orders, p.update_column = lo::shippriority, p.update_high = 1;
      p.projection = {lo::orderkey, lo::linenumber, lo::quantity, lo::extendedprice, lo::discount};
      break;
  }
  if (table == TableId::date) {
    p.key_of = [](std::int64_t k) -> std::int64_t { return datekey_of_day(static_cast<int>(k - 1)); };
  } else if (table == TableId::lineorder) {
    // The first line of order k (every order has one).
    p.key_of = [](std::int64_t k) -> std::int64_t { return order_key(k - 1) * 8 + 1; };
  } else {
    p.key_of = [](std::int64_t k) { return k; };
  }
  return p;
}

// --update-column: a column of the key-value table that updates may set,
// with the range of its values (codes of the vocabularies, numbers).
void set_update_column(ssb::PointWorkload& p, ssb::TableId table, const std::string& name) {
  using namespace ssb;
  struct Updatable {
    TableId table;
    const char* name;
    int column;
    std::int64_t low, high;
  };
  static const Updatable columns[] = {
      {TableId::customer, "c_mktsegment", c::mktsegment, 0, 4}, {TableId::customer, "c_region", c::region, 0, 4},
      {TableId::customer, "c_nation", c::nation, 0, 24},        {TableId::customer, "c_city", c::city, 0, 249},
      {TableId::part, "p_size", p::size, 1, 50},                {TableId::part, "p_category", p::category, 0, 24},
      {TableId::lineorder, "lo_shippriority", lo::shippriority, 0, 1},
      {TableId::lineorder, "lo_discount", lo::discount, 0, 10}, {TableId::lineorder, "lo_quantity", lo::quantity, 1, 50}};
  std::string known;
  for (const Updatable& u : columns) {
    if (u.table != table) continue;
    if (u.name == name) {
      p.updatable = true;
      p.update_column = static_cast<std::uint16_t>(u.column);
      p.update_low = u.low;
      p.update_high = u.high;
      return;
    }
    known += (known.empty() ? "" : ", ") + std::string(u.name);
  }
  throw UsageError("--update-column " + name + ": updates of table " + std::string(table_name(table)) + " may set " +
                   (known.empty() ? std::string("no column") : known));
}

}  // namespace

bool on_off(const std::string& value, const std::string& option) {
  if (value == "on") return true;
  if (value == "off") return false;
  throw UsageError(option + " must be on or off, not '" + value + "'");
}

void add_ssb_options(CLI::App& c, SsbOptions& o) {
  c.add_option("--scale", o.scale, "SSB scale factor (1-100 in the benchmark; 0.01 to 1000 accepted); every storage rank "
                                   "generates its fragments in memory")
      ->capture_default_str();
  c.add_option("--seed", o.seed, "Data seed (the same data as 'hpcdb generate --ssb' with this seed)")->capture_default_str();
  c.add_option("--deployment", o.deployment,
               "local (a storage engine and a query engine in every rank) or decoupled (storage engines on the first "
               "--storage-ranks ranks, query engines on the others); default: local on one rank, decoupled on more");
  c.add_option("--storage-ranks", o.storage_ranks, "Storage-engine ranks with --deployment decoupled (default 1)");
  c.add_option("--placement", o.placement,
               "Which storage engines hold which tables: TABLE=ENGINE,ENGINE;... (a table on several engines is split "
               "by key; default: lineorder on every storage engine, the others dealt round-robin)");
  c.add_option("--clients", o.clients, "Closed-loop clients per query engine (each issues its next query when its last "
                                       "one is answered)")
      ->capture_default_str();
  c.add_option("--duration", o.duration, "Seconds the clients issue queries (random queries)")->capture_default_str();
  c.add_option("--warmup", o.warmup, "Seconds at the start not counted")->capture_default_str();
  c.add_option("--queries", o.queries,
               "random (query and constants drawn from the benchmark's ranges), standard (the 13 queries with the "
               "benchmark's published constants, once each per --rounds, all at once), or a list of queries to draw "
               "from (Q1.1,Q3.2,...)")
      ->capture_default_str();
  c.add_option("--rounds", o.rounds, "--queries standard: times each query runs")->capture_default_str();
  c.add_option("--lookup-clients", o.lookup_clients,
               "Closed-loop point-query clients per query engine (lookups by primary key on --kv-table's key-value "
               "backend, beside the SSB clients)")
      ->capture_default_str();
  c.add_option("--lookup-think-ms", o.lookup_think_ms,
               "Milliseconds a point-query client waits after an answer before its next query (0: none)")
      ->capture_default_str();
  c.add_option("--update-fraction", o.update_fraction, "Share of point queries that are updates")->capture_default_str();
  c.add_option("--update-column", o.update_column,
               "Column that updates set, to values of its own range (default: one no SSB query reads: c_mktsegment, "
               "p_size or lo_shippriority; also c_region, c_nation, c_city, p_category, lo_discount, lo_quantity, "
               "whose updates the queries see)");
  c.add_option("--kv-table", o.kv_table, "Table with a key-value backend (customer, part, lineorder, supplier, date, none)")
      ->capture_default_str();
  c.add_option("--priorities", o.priorities,
               "on: point queries and their results travel latency-sensitive (before scans' results) and the scans' "
               "and star joins' threads run in the idle scheduling class, giving way at once to those serving point "
               "queries, whose network threads sleep in short steps when idle (--net-idle-sleep 100) instead of "
               "yielding; off: everything best-effort, every thread alike (an idle-class scan also gives way to "
               "every other program on the machine); auto: on when there are point-query clients, else off")
      ->capture_default_str();
  c.add_option("--semi-join-filters", o.semi_join_filters,
               "on: each query's fact selection also carries the keys its dimension selections kept (fewer fact "
               "rows shipped); off: only its own predicates")
      ->capture_default_str();
  c.add_option("--tuple-free", o.tuple_free,
               "on: selection results carry only their data section; off: with the tuple section (offsets)")
      ->capture_default_str();
  c.add_option("--piece-bytes", o.piece_bytes, "Largest result piece (message)")->capture_default_str();
  c.add_option("--scan-threads", o.scan_threads,
               "Worker threads of each shared scan, taking its zones of 16,384 rows one at a time (0: one per core)")
      ->capture_default_str();
  c.add_option("--predicate-evaluation", o.predicate_evaluation,
               "How a scan evaluates its queries' predicates: per-query (each query's predicates over every block, "
               "ranges with SIMD), indexed (one value-table lookup per row and indexed column, whatever the number "
               "of queries), or auto (whichever the scan's plan expects to be cheaper: per query for few queries)")
      ->capture_default_str();
  c.add_option("--cycle-queries", o.cycle_queries,
               "Star queries a query engine's batch cycle takes at most (the oldest waiting first)")
      ->capture_default_str();
  c.add_option("--cycles-in-flight", o.cycles_in_flight,
               "Batch cycles a query engine runs at once (the next one's dimension phase during the last one's fact "
               "phase)")
      ->capture_default_str();
  c.add_option("--reply-timeout", o.reply_timeout,
               "Seconds a storage engine owing results, or a connected query engine, may stay silent before the job "
               "ends naming it")
      ->capture_default_str();
  c.add_option("--answers", o.answers, "Write every query, its SQL and its rows to this JSON file (to check elsewhere)");
  c.add_option("--json", o.json, "Write the results as JSON to this file ('-': standard output)");
  c.add_option("--stream-sql", o.stream_sql,
               "Write, as JSON, the SQL of the first --stream-length random queries of each of --clients clients (of "
               "query engine 0) to this file and exit without running: the query stream these options give, for "
               "another system to run");
  c.add_option("--stream-length", o.stream_length, "Queries per client with --stream-sql")->capture_default_str();
  c.add_option("--late-engine", o.late_engine, "Testing aid: this query engine connects --late-by seconds late");
  c.add_option("--late-by", o.late_by, "Testing aid: see --late-engine")->capture_default_str();
  c.add_option("--fail-rank", o.fail_rank, "Testing aid: this rank dies (or hangs) --fail-after seconds into the run");
  c.add_option("--fail-after", o.fail_after, "Testing aid: see --fail-rank")->capture_default_str();
  c.add_option("--fail-how", o.fail_how, "Testing aid: kill (the rank dies) or hang (it stops)")->capture_default_str();
  add_message_layer_options(c, o.layer);
}

SsbRequest resolve(const SsbOptions& o, int ranks) {
  SsbRequest r;
  r.scale = ssb::scale_of(o.scale);
  r.mode = o.deployment.empty() ? (ranks == 1 ? DeploymentMode::local : DeploymentMode::decoupled)
                                : parse_deployment(o.deployment);
  r.storage_engines = o.storage_ranks > 0 ? o.storage_ranks : (r.mode == DeploymentMode::local ? ranks : 1);
  (void)Deployment(r.mode, ranks, r.storage_engines);  // checks the ranks
  std::vector<std::string> tables;
  for (int t = 0; t < ssb::kTables; ++t) tables.emplace_back(ssb::table_name(static_cast<ssb::TableId>(t)));
  r.placement = Placement::parse(o.placement, tables, r.storage_engines).describe(tables);

  const bool priorities = o.priorities == "auto" ? o.lookup_clients > 0 : on_off(o.priorities, "--priorities");
  r.storage.scan.layout = on_off(o.tuple_free, "--tuple-free") ? ResultLayout::tuple_free : ResultLayout::general;
  r.storage.scan.piece_bytes = parse_bytes(o.piece_bytes, "--piece-bytes");
  if (r.storage.scan.piece_bytes < 1024) throw UsageError("--piece-bytes must be at least 1Ki");
  if (o.scan_threads > 256) throw UsageError("--scan-threads must be from 0 to 256");
  r.storage.scan.workers = o.scan_threads > 0 ? o.scan_threads : std::max(1u, std::thread::hardware_concurrency());
  r.storage.scan.evaluation = parse_evaluation(o.predicate_evaluation);
  r.storage.priorities = priorities;
  // Priorities also at the CPU: the bulk operators' threads give way at once
  // to those serving point queries and to the network threads.
  r.storage.scan.background = priorities;
  if (!(o.reply_timeout > 0)) throw UsageError("--reply-timeout must be positive");
  r.storage.reply_timeout = o.reply_timeout;
  r.storage.connect_timeout = o.reply_timeout + (o.late_engine >= 0 ? o.late_by : 0);
  r.storage.heartbeat = std::min(1.0, o.reply_timeout / 4);
  if (o.kv_table != "none") {
    r.storage.kv_table = -1;
    for (int t = 0; t < ssb::kTables; ++t) {
      if (tables[static_cast<std::size_t>(t)] == o.kv_table) r.storage.kv_table = t;
    }
    if (r.storage.kv_table < 0) throw UsageError("--kv-table must name a table (or none), not '" + o.kv_table + "'");
  }
  r.query.star.semi_join_filters = on_off(o.semi_join_filters, "--semi-join-filters");
  if (o.cycle_queries < 1 || o.cycle_queries > 4096) throw UsageError("--cycle-queries must be from 1 to 4096");
  if (o.cycles_in_flight < 1 || o.cycles_in_flight > 16) throw UsageError("--cycles-in-flight must be from 1 to 16");
  r.query.star.cycle_queries = o.cycle_queries;
  r.query.star.cycles_in_flight = o.cycles_in_flight;
  r.query.star.background = r.storage.scan.background;
  r.query.star.reply_timeout = o.reply_timeout;
  r.query.priorities = priorities;
  r.query.kv_table = r.storage.kv_table;
  r.query.heartbeat = r.storage.heartbeat;

  ssb::WorkloadConfig& w = r.workload;
  if (o.queries == "standard") {
    w.mix = ssb::QueryMix::standard;
  } else if (o.queries != "random") {
    w.queries = parse_query_list(o.queries);
    if (w.queries.empty()) throw UsageError("--queries names no query");
  }
  if (o.clients > 4096) throw UsageError("--clients must be at most 4096 per query engine");
  if (o.lookup_clients > 4096) throw UsageError("--lookup-clients must be at most 4096 per query engine");
  if (!(o.duration > 0)) throw UsageError("--duration must be positive");
  if (o.warmup < 0 || o.warmup >= o.duration) throw UsageError("--warmup must be at least 0 and shorter than --duration");
  if (o.rounds < 1 || o.rounds > 1000) throw UsageError("--rounds must be from 1 to 1000");
  if (o.update_fraction < 0 || o.update_fraction > 1) throw UsageError("--update-fraction must be from 0 to 1");
  w.clients = o.clients;
  w.duration = o.duration;
  w.warmup = o.warmup;
  w.rounds = o.rounds;
  w.seed = o.seed;
  w.keep_answers = !o.answers.empty();
  r.storage.keep_update_log = w.keep_answers && o.update_fraction > 0;
  if (o.lookup_clients > 0) {
    if (r.storage.kv_table < 0) throw UsageError("--lookup-clients needs a key-value table (--kv-table)");
    w.points = point_workload(static_cast<ssb::TableId>(r.storage.kv_table), r.scale);
    w.points.clients = o.lookup_clients;
    w.points.update_fraction = o.update_fraction;
    if (!(o.lookup_think_ms >= 0) || o.lookup_think_ms > 60000) throw UsageError("--lookup-think-ms must be from 0 to 60000");
    w.points.think_seconds = o.lookup_think_ms / 1000;
    if (!o.update_column.empty()) set_update_column(w.points, static_cast<ssb::TableId>(r.storage.kv_table), o.update_column);
    if (o.update_fraction > 0 && !w.points.updatable) {
      throw UsageError("--update-fraction: table " + o.kv_table + " has no column that updates may change");
    }
  }
  if (o.late_engine >= 0 && !(o.late_by >= 0)) throw UsageError("--late-by must be at least 0");
  if (o.fail_how != "kill" && o.fail_how != "hang") throw UsageError("--fail-how must be kill or hang");
  if (o.fail_rank >= ranks) throw UsageError("--fail-rank " + std::to_string(o.fail_rank) + " is not a rank of this job");
  r.layer = hpcdb::resolve(o.layer);
  if (r.layer.threads == 0) throw UsageError("hpcdb ssb needs the message layer's network threads (--net-threads 1 or more)");
  // A yielding network thread would hand its core to a background thread
  // until the next scheduler tick; it sleeps in short steps instead.
  constexpr unsigned kPriorityIdleSleepUs = 100;
  if (priorities && o.layer.idle_sleep_us < 0) r.layer.idle_sleep_us = kPriorityIdleSleepUs;
  r.seed = o.seed;
  r.late_engine = o.late_engine;
  r.late_by = o.late_by;
  // --fail-how hang stops every thread of the rank (SIGSTOP), as a frozen node.
  r.failure = {o.fail_rank, o.fail_how == "hang" ? FailureMode::stop : FailureMode::kill, "", o.fail_after};
  r.report_file = o.json;
  r.answers_file = o.answers;
  return r;
}

}  // namespace hpcdb
