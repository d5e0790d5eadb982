#pragma once
// The SSB workload of one query engine: closed-loop clients, each issuing a
// query and its next one as soon as the answer is back (no think time),
// either random queries (query and constants uniform over the benchmark's
// ranges) for a duration, or the 13 queries with the benchmark's published
// constants; and, alongside, closed-loop point-query clients (lookups by
// primary key, a fraction of them updates) on the key-value table. Latencies
// are kept per flight and for the point queries; with answers kept, every
// query and its rows are returned (to check them elsewhere).
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "hpcdb/core/latency_histogram.hpp"
#include "hpcdb/query/query_engine.hpp"
#include "hpcdb/query/ssb_queries.hpp"

namespace hpcdb::ssb {

enum class QueryMix { random, standard };

struct PointWorkload {
  unsigned clients = 0;
  double think_seconds = 0;  // between an answer and the client's next point query
  double update_fraction = 0;
  std::int64_t keys = 0;                     // keys 1..keys (the key-value table's)
  std::function<std::int64_t(std::int64_t)> key_of;  // key index (1..keys) -> primary key
  bool updatable = true;                     // the table has a column updates may change:
  std::uint16_t update_column = 0;           // updates set it to a value in [update_low, update_high]
  std::int64_t update_low = 0;
  std::int64_t update_high = 0;
  std::vector<std::uint16_t> projection;     // columns a lookup returns
};

struct WorkloadConfig {
  QueryMix mix = QueryMix::random;
  unsigned clients = 64;  // the standard mix's queries too are issued by this many clients
  double duration = 30;  // random mix: seconds of issuing queries
  double warmup = 0;     // seconds at the start not counted
  unsigned rounds = 1;   // standard mix: each of the 13 queries this many times
  std::vector<QueryName> queries;  // random mix: drawn from these (empty: all 13)
  std::uint64_t seed = 42;
  PointWorkload points;
  bool keep_answers = false;
};

struct QueryAnswer {
  SsbQuery query;
  std::vector<ResultRow> rows;
  SeenVersions seen;  // what it saw of updates, per (table, fragment)
};

struct WorkloadResult {
  double measured_seconds = 0;  // the window the counts below cover
  std::uint64_t completed = 0;  // star queries completed in the window
  std::array<std::uint64_t, kQueryNames> completed_by_query{};
  std::vector<std::uint64_t> completed_by_client;  // random mix: each client's, in the window
  std::array<LatencyHistogram, kFlights> latency_by_flight;
  LatencyHistogram latency;
  std::uint64_t point_queries = 0;
  std::uint64_t updates = 0;
  std::uint64_t lookups_found = 0;
  LatencyHistogram point_latency;
  std::vector<QueryAnswer> answers;
};

// Client `client` of query engine `engine` draws its queries from its own
// random stream: the same sequence in every run with the same seed.
CounterRng client_stream(std::uint64_t seed, int engine, unsigned client);
CounterRng point_client_stream(std::uint64_t seed, int engine, unsigned client);
// The next random query of a stream: the query uniform over `pool` (all 13
// when empty), its constants from the benchmark's ranges.
SsbQuery draw_query(CounterRng& rng, const std::vector<QueryName>& pool);

// Runs the workload on `engine` (connected); `tick` is called about every
// 10 ms on this thread while it waits.
WorkloadResult run_workload(QueryEngine& engine, const WorkloadConfig& config, const std::function<void()>& tick);

}  // namespace hpcdb::ssb
