#pragma once
// One batch cycle of the star-query operator, phase by phase (the operator
// sends, waits and feeds the events in):
//   dimension phase: one selection per (query, dimension it joins), one batch
//     per dimension table; the rows that come back fill one shared hash
//     table per dimension (key -> bitset of the batch's queries the row
//     passed, and the attributes the queries group by);
//   fact phase: one selection per query (its fact predicates, plus, with
//     semi-join filters, the keys each of its dimension selections kept);
//     each fact row that comes back is probed once against every dimension
//     (AND of bitsets), and its measure added to the groups of each query it
//     still joins for;
//   finish: every query gets its rows.
// A storage engine may answer the batches of two cycles with one result
// batch (it scans once for every batch waiting): the bits of the other
// cycle's queries are passed over.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "hpcdb/query/batch_consumer.hpp"
#include "hpcdb/query/dimension_table.hpp"
#include "hpcdb/query/group_table.hpp"
#include "hpcdb/query/result_rows.hpp"
#include "hpcdb/query/star_plan.hpp"
#include "hpcdb/query/stub_client.hpp"
#include "hpcdb/storage/result_piece_view.hpp"

namespace hpcdb {

// What a query saw of updates: per (table, fragment) it read, how many
// propagated updates that fragment's scan had applied when it scanned for
// the query (a prefix of the fragment's update log).
using SeenVersions = std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t>;

struct StarRequest {
  StarPlan plan;
  // Called on the operator's thread with the query's rows.
  std::function<void(std::vector<ResultRow> rows)> done;
  // If set, called just before done() with what the query saw of updates.
  std::function<void(const SeenVersions& seen)> seen;
  // When the request was submitted (set by the operator).
  std::uint64_t submitted_ns = 0;
};

// What a cycle did, and where its thread's time went (seconds of wall time
// on the operator's thread, which does nothing else meanwhile).
struct CycleCounts {
  std::uint64_t dimension_tuples = 0;
  std::uint64_t fact_tuples = 0;
  std::uint64_t fact_matches = 0;  // (tuple, query) pairs aggregated
  std::uint64_t result_bytes = 0;  // RESULT pieces received
  std::uint64_t filter_keys = 0;   // keys sent as semi-join filters
  double build_seconds = 0;        // dimension rows into the shared hash tables
  double filter_seconds = 0;       // semi-join filters from them
  double probe_seconds = 0;        // fact rows probed against the dimensions
  double aggregate_seconds = 0;    // measures added to the queries' groups
  double finish_seconds = 0;       // result rows made, ordered and handed over
  CycleCounts& operator+=(const CycleCounts& o);
};

// (table, fragment) -> the storage rank that owes its results (-1: not heard from yet)
using OwedFragments = std::map<std::pair<std::uint32_t, std::uint32_t>, int>;

class StarBatchCycle {
 public:
  StarBatchCycle(std::vector<StarRequest>& requests, std::function<QueryId()> next_query_id);

  OwedFragments send_dimension_selections(const std::map<std::uint32_t, StubClient*>& tables, BatchConsumer& consumer);
  void take_dimension_event(const BatchEvent& event);
  OwedFragments send_fact_selection(const std::map<std::uint32_t, StubClient*>& tables, BatchConsumer& consumer,
                                    bool semi_join_filters);
  void take_fact_event(const BatchEvent& event);
  void finish(const ValueRenderer& render);
  const CycleCounts& counts() const { return counts_; }
  // Updates each (table, fragment) had taken when it scanned for this cycle
  // (from START BATCH), for every table the cycle read.
  const SeenVersions& versions() const { return versions_; }

 private:
  struct Dimension {
    std::uint32_t table = 0;
    std::uint16_t key = 0;
    std::uint16_t fact_column = 0;
    std::vector<std::uint16_t> attributes;              // union over the batch
    std::unordered_map<QueryId, std::size_t> position;  // sub-query id -> batch position
    std::vector<bool> filtered;                         // by batch position: selects on this dimension
    std::unique_ptr<DimensionTable> rows;
  };
  // How a query's group key and measure are made from a probed fact row.
  struct QueryProbe {
    int groups = 0;
    std::array<std::uint8_t, kMaxGroupColumns> dim{};   // which dimension
    std::array<std::uint8_t, kMaxGroupColumns> slot{};  // which of its attributes
    Measure measure = Measure::revenue;
    std::array<std::uint8_t, 2> terms{};  // indices into the batch's measure columns
  };
  struct Field {
    std::size_t offset = 0;
    std::size_t width = 0;
  };
  // A dimension as the probe reads it.
  struct ProbeDim {
    const DimensionTable* table = nullptr;
    const std::uint64_t* pass = nullptr;  // its pass-through bits
    std::size_t offset = 0;               // of the foreign key in the fact record
    std::size_t width = 0;
    bool prefetch = false;
  };
  // How the fact records of one fragment's batch are read.
  struct FactReader {
    std::vector<std::size_t> positions;  // bit -> batch position (kForeign: another cycle's query)
    std::vector<std::uint64_t> own;      // the bits of this cycle's queries
    bool identity = false;
    std::vector<ProbeDim> dims;          // by dimension
    bool int32_keys = false;             // every foreign key 4 bytes
    bool prefetch = false;               // some dimension is prefetched
    std::vector<Field> measures;         // by the batch's measure columns
  };
  // The fact rows of a block of a piece that some query still joins: their
  // masks and dimension slots (filled by the probe, read by the aggregation).
  struct Survivors {
    std::vector<std::uint32_t> tuples;
    std::vector<std::uint64_t> masks;             // words per survivor
    std::vector<const std::uint64_t*> slots;      // dimensions per survivor
  };
  static constexpr std::size_t kForeign = static_cast<std::size_t>(-1);

  void plan_dimensions();
  std::vector<Predicate> semi_join_filters(std::size_t query) const;
  Dimension& dimension_of(std::uint32_t table);
  static Field field_of(const RecordLayout& record, std::uint16_t column);
  std::vector<std::size_t> positions_of(const StartBatch& start, const std::unordered_map<QueryId, std::size_t>& ids) const;
  void note_version(const BatchEvent& event);
  // Tuples [first, last) of a piece.
  struct TupleRange {
    std::size_t first;
    std::size_t last;
  };
  template <std::size_t kWords, bool kInt32Keys>
  void probe_tuples(const FactReader& reader, const ResultPieceView& piece, const RecordLayout& record, TupleRange range);
  void probe_and_aggregate(const FactReader& reader, const ResultPieceView& piece, const RecordLayout& record);
  void aggregate_survivors(const FactReader& reader, const ResultPieceView& piece, const RecordLayout& record);
  void aggregate(std::size_t query, const std::uint64_t* const* slots, const std::int64_t* measures);

  std::vector<StarRequest>& requests_;
  std::function<QueryId()> next_query_id_;
  std::size_t n_;
  std::size_t words_;
  std::vector<Dimension> dims_;
  std::vector<std::vector<std::size_t>> dim_of_join_;  // per query, per join
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::size_t>> dim_positions_;
  std::unordered_map<QueryId, std::size_t> fact_ids_;
  std::map<std::uint32_t, FactReader> fact_readers_;  // by fragment
  std::vector<std::uint16_t> measure_columns_;  // the fact columns any query's measure reads
  std::vector<QueryProbe> query_probes_;
  std::vector<GroupTable> groups_;
  std::vector<std::uint64_t> matched_;
  Survivors survivors_;
  SeenVersions versions_;
  CycleCounts counts_;
};

}  // namespace hpcdb
