#include "hpcdb/query/star_batch_cycle.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>

#include "hpcdb/core/error.hpp"
#include "hpcdb/storage/result_piece_view.hpp"

namespace hpcdb {
namespace {

// An integer field of a record; its width says its type (the schemas use
// u8, u16, i32 and i64).
std::int64_t read_field(const std::byte* p, std::size_t width) {
  switch (width) {
    case 1: return static_cast<std::uint8_t>(*p);
    case 2: { std::uint16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { std::int32_t v; std::memcpy(&v, p, 4); return v; }
    default: { std::int64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

void set_bit(std::uint64_t* words, std::size_t bit) { words[bit / 64] |= std::uint64_t{1} << (bit % 64); }

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Calls f(position) for every set bit of a bitset of `words` words at `bits`.
template <class F>
void for_each_bit(const std::byte* bits, std::size_t words, F&& f) {
  for (std::size_t w = 0; w < words; ++w) {
    std::uint64_t word;
    std::memcpy(&word, bits + 8 * w, 8);
    while (word != 0) {
      f(64 * w + static_cast<std::size_t>(std::countr_zero(word)));
      word &= word - 1;
    }
  }
}

}  // namespace

CycleCounts& CycleCounts::operator+=(const CycleCounts& o) {
  dimension_tuples += o.dimension_tuples;
  fact_tuples += o.fact_tuples;
  fact_matches += o.fact_matches;
  result_bytes += o.result_bytes;
  filter_keys += o.filter_keys;
  build_seconds += o.build_seconds;
  filter_seconds += o.filter_seconds;
  probe_seconds += o.probe_seconds;
  aggregate_seconds += o.aggregate_seconds;
  finish_seconds += o.finish_seconds;
  return *this;
}

StarBatchCycle::StarBatchCycle(std::vector<StarRequest>& requests, std::function<QueryId()> next_query_id)
    : requests_(requests),
      next_query_id_(std::move(next_query_id)),
      n_(requests.size()),
      words_((requests.size() + 63) / 64),
      dim_of_join_(requests.size()),
      query_probes_(requests.size()),
      groups_(requests.size()),
      matched_(requests.size(), 0) {
  plan_dimensions();
}

// The batch's dimension tables, each with the union of the attributes its
// queries group by, and where each query's grouping columns are found.
void StarBatchCycle::plan_dimensions() {
  for (std::size_t q = 0; q < n_; ++q) {
    for (const DimensionJoin& j : requests_[q].plan.joins) {
      auto it = std::find_if(dims_.begin(), dims_.end(), [&](const Dimension& d) { return d.table == j.table; });
      if (it == dims_.end()) {
        Dimension d;
        d.table = j.table;
        d.key = j.key;
        d.fact_column = j.fact_column;
        d.filtered.assign(n_, false);
        dims_.push_back(std::move(d));
        it = dims_.end() - 1;
      }
      if (it->key != j.key || it->fact_column != j.fact_column) {
        throw Error("two queries join dimension table " + std::to_string(j.table) + " on different columns");
      }
      for (std::uint16_t a : j.attributes) {
        if (std::find(it->attributes.begin(), it->attributes.end(), a) == it->attributes.end()) it->attributes.push_back(a);
      }
      dim_of_join_[q].push_back(static_cast<std::size_t>(it - dims_.begin()));
    }
  }
  for (std::size_t q = 0; q < n_; ++q) {
    const StarPlan& plan = requests_[q].plan;
    QueryProbe& probe = query_probes_[q];
    if (plan.group_by.size() > kMaxGroupColumns) throw Error("a star query groups by more than 3 columns");
    for (const GroupColumn& g : plan.group_by) {
      const std::size_t di = dim_of_join_[q].at(g.join);
      const auto& attrs = dims_[di].attributes;
      const auto i = static_cast<std::size_t>(probe.groups++);
      probe.dim[i] = static_cast<std::uint8_t>(di);
      probe.slot[i] = static_cast<std::uint8_t>(std::find(attrs.begin(), attrs.end(), g.column) - attrs.begin());
    }
    probe.measure = plan.measure;
    const std::size_t terms = plan.measure == Measure::revenue ? 1 : 2;
    if (plan.measure_columns.size() != terms) throw Error("a star query's measure reads the wrong number of columns");
    for (std::size_t i = 0; i < terms; ++i) {
      const std::uint16_t c = plan.measure_columns[i];
      auto it = std::find(measure_columns_.begin(), measure_columns_.end(), c);
      if (it == measure_columns_.end()) it = measure_columns_.insert(measure_columns_.end(), c);
      probe.terms[i] = static_cast<std::uint8_t>(it - measure_columns_.begin());
    }
  }
}

OwedFragments StarBatchCycle::send_dimension_selections(const std::map<std::uint32_t, StubClient*>& tables,
                                                        BatchConsumer& consumer) {
  OwedFragments owed;
  for (Dimension& d : dims_) {
    d.rows = std::make_unique<DimensionTable>(words_, d.attributes.size());
    std::vector<std::uint16_t> projection{d.key};
    projection.insert(projection.end(), d.attributes.begin(), d.attributes.end());
    std::vector<StorageQuery> queries;
    for (std::size_t q = 0; q < n_; ++q) {
      const auto& joins = requests_[q].plan.joins;
      const auto j = std::find_if(joins.begin(), joins.end(), [&](const DimensionJoin& x) { return x.table == d.table; });
      if (j == joins.end()) {
        set_bit(d.rows->pass_through().data(), q);
        continue;
      }
      StorageQuery sq;
      sq.id = next_query_id_();
      sq.predicates = j->predicates;
      sq.projection = projection;
      d.position[sq.id] = q;
      d.filtered[q] = !j->predicates.empty();
      queries.push_back(std::move(sq));
    }
    StubClient* stub = tables.at(d.table);
    for (std::size_t f = 0; f < stub->fragments(); ++f) owed[{d.table, static_cast<std::uint32_t>(f)}] = -1;
    stub->send(std::move(queries), Priority::best_effort, consumer);
  }
  return owed;
}

StarBatchCycle::Dimension& StarBatchCycle::dimension_of(std::uint32_t table) {
  auto d = std::find_if(dims_.begin(), dims_.end(), [&](const Dimension& x) { return x.table == table; });
  if (d == dims_.end()) throw Error("results of table " + std::to_string(table) + " arrived while its dimension phase did not wait for it");
  return *d;
}

StarBatchCycle::Field StarBatchCycle::field_of(const RecordLayout& record, std::uint16_t column) {
  for (std::size_t i = 0; i < record.columns.size(); ++i) {
    if (record.columns[i] == column) return {record.offsets[i], record.widths[i]};
  }
  throw Error("a result batch lacks column " + std::to_string(column) + ", which its queries asked for");
}

// Bit i of a batch's bitsets stands for start.queries[i]: its position in
// this cycle's batch, from the ids this cycle gave its selections, or
// kForeign for a query of another cycle answered by the same result batch.
std::vector<std::size_t> StarBatchCycle::positions_of(const StartBatch& start,
                                                      const std::unordered_map<QueryId, std::size_t>& ids) const {
  std::vector<std::size_t> p;
  p.reserve(start.queries.size());
  std::size_t own = 0;
  for (QueryId id : start.queries) {
    const auto it = ids.find(id);
    p.push_back(it == ids.end() ? kForeign : it->second);
    own += it == ids.end() ? 0 : 1;
  }
  if (own != ids.size()) {
    throw Error("a START BATCH names " + std::to_string(own) + " of the " + std::to_string(ids.size()) +
                " queries this cycle sent to table " + std::to_string(start.table));
  }
  return p;
}

void StarBatchCycle::note_version(const BatchEvent& e) {
  if (e.kind == BatchEvent::Kind::start) versions_[{e.table, e.fragment}] = e.start->updates;
}

void StarBatchCycle::take_dimension_event(const BatchEvent& e) {
  Dimension& d = dimension_of(e.table);
  if (e.kind == BatchEvent::Kind::start) {
    dim_positions_[{e.table, e.fragment}] = positions_of(*e.start, d.position);
    note_version(e);
    return;
  }
  if (e.kind != BatchEvent::Kind::piece) return;
  const Clock::time_point start = Clock::now();
  const std::vector<std::size_t>& positions = dim_positions_.at({e.table, e.fragment});
  const RecordLayout& record = e.start->record;
  const Field key = field_of(record, d.key);
  std::vector<Field> attributes;
  for (std::uint16_t a : d.attributes) attributes.push_back(field_of(record, a));
  const ResultPieceView piece(e.payload->bytes());
  for (std::size_t t = 0; t < piece.tuples(); ++t) {
    const std::byte* rec = piece.record(t, record.bitset_bytes);
    const std::size_t entry = d.rows->entry(read_field(rec + key.offset, key.width));
    std::uint64_t* mask = d.rows->mask(entry);
    for_each_bit(piece.bitset(t), record.bitset_bytes / 8, [&](std::size_t bit) {
      if (positions[bit] != kForeign) set_bit(mask, positions[bit]);
    });
    std::int32_t* values = d.rows->values(entry);
    for (std::size_t a = 0; a < attributes.size(); ++a) {
      values[a] = static_cast<std::int32_t>(read_field(rec + attributes[a].offset, attributes[a].width));
    }
  }
  counts_.dimension_tuples += piece.tuples();
  counts_.result_bytes += e.payload->bytes().size();
  counts_.build_seconds += seconds_since(start);
}

// For each dimension the query selects on: the keys its selection kept, as a
// predicate on the fact table's foreign key.
std::vector<Predicate> StarBatchCycle::semi_join_filters(std::size_t query) const {
  std::vector<Predicate> filters;
  for (const Dimension& d : dims_) {
    if (!d.filtered[query]) continue;
    std::vector<std::int64_t> keys;
    d.rows->for_each_entry([&](std::int64_t key, const std::uint64_t* mask) {
      if ((mask[query / 64] >> (query % 64)) & 1) keys.push_back(key);
    });
    filters.push_back(Predicate::in(d.fact_column, keys));
  }
  return filters;
}

OwedFragments StarBatchCycle::send_fact_selection(const std::map<std::uint32_t, StubClient*>& tables,
                                                  BatchConsumer& consumer, bool semi_join_filters_on) {
  const Clock::time_point start = Clock::now();
  for (Dimension& d : dims_) d.rows->seal();
  const std::uint32_t fact_table = requests_.front().plan.fact_table;
  std::vector<std::uint16_t> foreign_keys;
  for (const Dimension& d : dims_) foreign_keys.push_back(d.fact_column);
  std::vector<StorageQuery> queries;
  for (std::size_t q = 0; q < n_; ++q) {
    const StarPlan& plan = requests_[q].plan;
    if (plan.fact_table != fact_table) throw Error("the queries of one batch read different fact tables");
    StorageQuery sq;
    sq.id = next_query_id_();
    sq.predicates = plan.fact_predicates;
    if (semi_join_filters_on) {
      for (Predicate& f : semi_join_filters(q)) {
        counts_.filter_keys += f.cardinality();
        sq.predicates.push_back(std::move(f));
      }
    }
    sq.projection = foreign_keys;
    sq.projection.insert(sq.projection.end(), plan.measure_columns.begin(), plan.measure_columns.end());
    fact_ids_[sq.id] = q;
    queries.push_back(std::move(sq));
  }
  counts_.filter_seconds += seconds_since(start);
  StubClient* stub = tables.at(fact_table);
  OwedFragments owed;
  for (std::size_t f = 0; f < stub->fragments(); ++f) owed[{fact_table, static_cast<std::uint32_t>(f)}] = -1;
  stub->send(std::move(queries), Priority::best_effort, consumer);
  return owed;
}

void StarBatchCycle::take_fact_event(const BatchEvent& e) {
  if (e.kind == BatchEvent::Kind::start) {
    note_version(e);
    FactReader r;
    r.positions = positions_of(*e.start, fact_ids_);
    r.identity = r.positions.size() == n_;
    for (std::size_t i = 0; r.identity && i < n_; ++i) r.identity = r.positions[i] == i;
    r.own.assign((r.positions.size() + 63) / 64, 0);
    for (std::size_t i = 0; i < r.positions.size(); ++i) {
      if (r.positions[i] != kForeign) set_bit(r.own.data(), i);
    }
    r.int32_keys = true;
    for (const Dimension& d : dims_) {
      const Field key = field_of(e.start->record, d.fact_column);
      // Dimension tables beyond the second-level cache are prefetched.
      const bool large = d.rows->slot_bytes() > (std::size_t{256} << 10);
      r.dims.push_back({d.rows.get(), d.rows->pass_through_words(), key.offset, key.width, large});
      r.int32_keys &= key.width == 4;
      r.prefetch |= large;
    }
    for (std::uint16_t c : measure_columns_) r.measures.push_back(field_of(e.start->record, c));
    fact_readers_[e.fragment] = std::move(r);
    return;
  }
  if (e.kind != BatchEvent::Kind::piece) return;
  const FactReader& reader = fact_readers_.at(e.fragment);
  const ResultPieceView piece(e.payload->bytes());
  probe_and_aggregate(reader, piece, e.start->record);
  counts_.fact_tuples += piece.tuples();
  counts_.result_bytes += e.payload->bytes().size();
}

// A piece goes through the probe and the aggregation a block of tuples at a
// time, so that the dimension slots the probe brought into the cache are
// still there when the aggregation reads their grouping values (a whole
// piece's slots overflow the second-level cache).
void StarBatchCycle::probe_and_aggregate(const FactReader& reader, const ResultPieceView& piece, const RecordLayout& record) {
  constexpr std::size_t kBlockTuples = 512;
  const std::size_t tuples = piece.tuples();
  Clock::time_point start = Clock::now();  // one clock read a block: its end starts the next
  for (std::size_t first = 0; first < tuples; first += kBlockTuples) {
    const TupleRange block{first, std::min(tuples, first + kBlockTuples)};
    if (words_ == 1 && reader.int32_keys) {
      probe_tuples<1, true>(reader, piece, record, block);
    } else if (words_ == 1) {
      probe_tuples<1, false>(reader, piece, record, block);
    } else {
      probe_tuples<0, false>(reader, piece, record, block);
    }
    const Clock::time_point probed = Clock::now();
    aggregate_survivors(reader, piece, record);
    const Clock::time_point aggregated = Clock::now();
    counts_.probe_seconds += std::chrono::duration<double>(probed - start).count();
    counts_.aggregate_seconds += std::chrono::duration<double>(aggregated - probed).count();
    start = aggregated;
  }
}

void StarBatchCycle::aggregate(std::size_t q, const std::uint64_t* const* slots, const std::int64_t* measures) {
  const QueryProbe& p = query_probes_[q];
  std::uint64_t key = 0;
  for (int g = 0; g < p.groups; ++g) {
    const auto i = static_cast<std::size_t>(g);
    key = pack_group(key, g, DimensionTable::values_in(slots[p.dim[i]], words_)[p.slot[i]]);
  }
  const std::int64_t a = measures[p.terms[0]];
  std::int64_t value = a;
  if (p.measure == Measure::extendedprice_times_discount) value = a * measures[p.terms[1]];
  if (p.measure == Measure::revenue_minus_supplycost) value = a - measures[p.terms[1]];
  groups_[q].add(key, value);
  ++matched_[q];
}

// The probe: each fact row's bitset (this cycle's positions), ANDed per
// dimension with the bitset of the dimension row its key finds (or with the
// queries that do not join that dimension); the rows some query still joins
// go to the survivors with their masks and slots. kWords: bitset words (0:
// any number); kInt32Keys: every foreign key is 4 bytes (SSB's are); slots
// of large dimension tables a few rows ahead are prefetched.
template <std::size_t kWords, bool kInt32Keys>
void StarBatchCycle::probe_tuples(const FactReader& reader, const ResultPieceView& piece, const RecordLayout& record,
                                  TupleRange range) {
  constexpr std::size_t kPrefetch = 8;
  const std::size_t words = kWords == 0 ? words_ : kWords;
  const std::size_t dims = reader.dims.size();
  const ProbeDim* probe_dims = reader.dims.data();
  const std::size_t bitset_words = record.bitset_bytes / 8;
  const std::size_t tuples = piece.tuples();  // prefetching reaches into the next block
  const auto key_of = [](const std::byte* rec, const ProbeDim& d) -> std::int64_t {
    if constexpr (kInt32Keys) {
      std::int32_t v;
      std::memcpy(&v, rec + d.offset, 4);
      return v;
    } else {
      return read_field(rec + d.offset, d.width);
    }
  };
  Survivors& out = survivors_;
  const std::size_t block = range.last - range.first;
  out.tuples.resize(block);
  out.masks.resize(block * words);
  out.slots.resize(block * dims);
  std::size_t kept = 0;
  for (std::size_t t = range.first; t < range.last; ++t) {
    if (reader.prefetch && t + kPrefetch < tuples) {
      const std::byte* ahead = piece.record(t + kPrefetch, record.bitset_bytes);
      for (std::size_t d = 0; d < dims; ++d) {
        if (!probe_dims[d].prefetch) continue;
        const std::uint64_t* a = probe_dims[d].table->slot_address(key_of(ahead, probe_dims[d]));
        if (a != nullptr) __builtin_prefetch(a);
      }
    }
    const std::byte* bits = piece.bitset(t);
    const std::byte* rec = piece.record(t, record.bitset_bytes);
    std::uint64_t* mask = out.masks.data() + kept * words;
    const std::uint64_t** slots = out.slots.data() + kept * dims;
    if (reader.identity) {
      std::memcpy(mask, bits, words * 8);
    } else {
      // Rows only another cycle's queries passed (a result batch shared
      // with it) are passed over at once.
      std::uint64_t mine = 0;
      for (std::size_t w = 0; w < bitset_words; ++w) {
        std::uint64_t word;
        std::memcpy(&word, bits + 8 * w, 8);
        mine |= word & reader.own[w];
      }
      if (mine == 0) continue;
      std::fill_n(mask, words, 0);
      for_each_bit(bits, bitset_words, [&](std::size_t bit) {
        if (reader.positions[bit] != kForeign) set_bit(mask, reader.positions[bit]);
      });
    }
    std::uint64_t any = 1;
    for (std::size_t d = 0; d < dims && any != 0; ++d) {
      const ProbeDim& pd = probe_dims[d];
      slots[d] = pd.table->slot(key_of(rec, pd));
      any = 0;
      for (std::size_t w = 0; w < words; ++w) {
        mask[w] &= pd.pass[w] | slots[d][w];
        any |= mask[w];
      }
    }
    out.tuples[kept] = static_cast<std::uint32_t>(t);
    kept += any != 0 ? 1 : 0;
  }
  out.tuples.resize(kept);
}

// The aggregation: every survivor's measure added to the groups of each
// query its mask still holds.
void StarBatchCycle::aggregate_survivors(const FactReader& reader, const ResultPieceView& piece, const RecordLayout& record) {
  const std::size_t dims = dims_.size();
  std::array<std::int64_t, 4> measures{};
  if (measure_columns_.size() > measures.size()) throw Error("a batch's measures read more than 4 fact columns");
  for (std::size_t i = 0; i < survivors_.tuples.size(); ++i) {
    const std::byte* rec = piece.record(survivors_.tuples[i], record.bitset_bytes);
    for (std::size_t m = 0; m < measure_columns_.size(); ++m) {
      measures[m] = read_field(rec + reader.measures[m].offset, reader.measures[m].width);
    }
    const std::uint64_t* mask = survivors_.masks.data() + i * words_;
    const std::uint64_t* const* slots = survivors_.slots.data() + i * dims;
    for (std::size_t w = 0; w < words_; ++w) {
      for (std::uint64_t word = mask[w]; word != 0; word &= word - 1) {
        aggregate(64 * w + static_cast<std::size_t>(std::countr_zero(word)), slots, measures.data());
        ++counts_.fact_matches;
      }
    }
  }
}

void StarBatchCycle::finish(const ValueRenderer& render) {
  const Clock::time_point start = Clock::now();
  for (std::size_t q = 0; q < n_; ++q) {
    const StarPlan& plan = requests_[q].plan;
    std::vector<GroupedRow> rows;
    if (plan.group_by.empty()) {
      GroupedRow row;
      if (matched_[q] > 0) groups_[q].for_each([&](std::uint64_t, std::int64_t sum) { row.sum = sum; });
      rows.push_back(row);
    } else {
      groups_[q].for_each([&](std::uint64_t key, std::int64_t sum) {
        GroupedRow row;
        for (std::size_t g = 0; g < plan.group_by.size(); ++g) row.groups.push_back(unpack_group(key, static_cast<int>(g)));
        row.sum = sum;
        rows.push_back(std::move(row));
      });
    }
    if (requests_[q].seen) requests_[q].seen(versions_);
    requests_[q].done(result_rows(plan, rows, render));
  }
  counts_.finish_seconds += seconds_since(start);
}

}  // namespace hpcdb
