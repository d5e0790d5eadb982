#include "hpcdb/txn/serializability_checker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "hpcdb/txn/lock_space.hpp"

namespace hpcdb {
namespace {

struct VersionKey {
  LockId record;
  TxnId version;
  bool operator<(const VersionKey& o) const { return record != o.record ? record < o.record : version < o.version; }
};

// The versions of one record in the order they were written: versions[0] is
// the initial one (0); writers[j] wrote versions[j] (j >= 1).
struct Chain {
  std::vector<TxnId> versions{0};
  std::vector<std::size_t> writers{SIZE_MAX};
  std::vector<bool> present{true};
};

enum class EdgeKind { write_write, write_read, read_write, range_write_read, range_read_write };

struct Edge {
  std::size_t from, to;
  EdgeKind kind;
  LockId record;
  TxnId version;   // the version read or overwritten
  LockRange range;  // range edges
};

using Problem = std::optional<std::string>;

constexpr std::size_t kRangeDeletesOrdered = 8;  // per range read

class HistoryChecker {
 public:
  HistoryChecker(const std::vector<CommittedTxn>& history, const std::vector<RecordVersion>& finals,
                 const std::vector<ParticipantVote>& votes, const RecordNamer& name)
      : history_(history), finals_(finals), votes_(votes), name_(name) {}

  HistoryCheck run(bool require_serializable) {
    HistoryCheck c;
    c.transactions = history_.size();
    Problem p = index_ids();
    if (!p) p = check_votes();
    if (!p) p = check_writes();
    if (!p) p = check_reads();
    if (!p) p = build_chains();
    if (!p) p = check_final_state();
    if (!p && require_serializable) p = check_graph();
    c.edges = edges_.size();
    c.range_edges = range_edges_;
    if (p) {
      c.ok = false;
      c.problem = std::move(*p);
    }
    return c;
  }

 private:
  std::string id(std::size_t txn) const { return fmt::format("{:#x}", history_[txn].id); }
  std::string record_name(LockId record) const { return name_(record); }
  std::string range_name(const LockRange& r) const { return fmt::format("[{} .. {}]", name_(r.first), name_(r.last)); }
  bool wrote(TxnId writer, LockId record) const { return written_by_.contains({record, writer}); }

  Problem index_ids() {
    for (std::size_t i = 0; i < history_.size(); ++i) {
      if (history_[i].id == 0 || !index_.emplace(history_[i].id, i).second) {
        return fmt::format("history: transaction id {:#x} is 0 or committed twice", history_[i].id);
      }
      for (const RecordWrite& w : history_[i].writes) written_by_.insert({w.record, history_[i].id});
    }
    return std::nullopt;
  }

  // A participant may vote no only on an attempt that then aborts.
  Problem check_votes() const {
    for (const ParticipantVote& v : votes_) {
      if (v.voted_yes || !v.told_to_commit) continue;
      const bool committed = index_.contains(v.txn);
      return fmt::format("2PC atomic commitment: lock agent rank {} voted no on transaction {:#x}, which then {}", v.agent,
                         v.txn, committed ? "committed" : "was told to commit");
    }
    return std::nullopt;
  }

  Problem check_writes() {
    for (std::size_t i = 0; i < history_.size(); ++i) {
      for (const RecordWrite& w : history_[i].writes) {
        if (w.version != 0 && !wrote(w.version, w.record)) {
          return fmt::format("dirty write: transaction {} overwrote record {} in version {:#x}, which no committed "
                             "transaction wrote",
                             id(i), record_name(w.record), w.version);
        }
        const auto [it, fresh] = next_writer_.emplace(VersionKey{w.record, w.version}, i);
        if (!fresh) {
          return fmt::format("lost update: transactions {} and {} both overwrote version {:#x} of record {}",
                             id(it->second), id(i), w.version, record_name(w.record));
        }
        ++writes_of_[w.record];
        kind_of_[{w.record, history_[i].id}] = w.kind;
      }
    }
    return std::nullopt;
  }

  Problem check_reads() const {
    for (const CommittedTxn& t : history_) {
      for (const RecordVersion& r : t.reads) {
        if (r.version != 0 && !wrote(r.version, r.record)) {
          return fmt::format("dirty read: transaction {:#x} read version {:#x} of record {}, which no committed "
                             "transaction wrote (a dirty or aborted read)",
                             t.id, r.version, record_name(r.record));
        }
      }
    }
    return std::nullopt;
  }

  // Follows each record's versions from the initial one; checks that they
  // form one chain and that inserts replace absent versions, updates and
  // deletes present ones.
  Problem build_chains() {
    for (const auto& [record, writes] : writes_of_) {
      Chain& chain = chains_[record];
      for (auto it = next_writer_.find({record, 0}); it != next_writer_.end() && chain.writers.size() <= writes;
           it = next_writer_.find({record, chain.versions.back()})) {
        const TxnId version = history_[it->second].id;
        const WriteKind kind = kind_of_.at({record, version});
        if (chain.versions.size() == 1) chain.present[0] = kind != WriteKind::insert;
        if ((kind == WriteKind::insert) == chain.present.back()) {
          return fmt::format("row presence: transaction {:#x} {} record {} in version {:#x}, which was {}", version,
                             kind == WriteKind::insert ? "inserted" : "updated or deleted", record_name(record),
                             chain.versions.back(), chain.present.back() ? "present" : "absent");
        }
        chain.versions.push_back(version);
        chain.writers.push_back(it->second);
        chain.present.push_back(kind != WriteKind::remove);
      }
      if (chain.versions.size() != writes + 1) {
        return fmt::format("dirty write: the {} committed writes of record {} do not form one chain of versions from "
                           "its initial one",
                           writes, record_name(record));
      }
    }
    return std::nullopt;
  }

  Problem check_final_state() const {
    std::map<LockId, TxnId> actual;
    for (const RecordVersion& f : finals_) actual[f.record] = f.version;
    for (const auto& [record, chain] : chains_) {
      const auto found = actual.find(record);
      const TxnId version = found == actual.end() ? 0 : found->second;
      if (version != chain.versions.back()) {
        return fmt::format("final state: record {} ends in version {:#x}, but its committed writes end in {:#x}",
                           record_name(record), version, chain.versions.back());
      }
    }
    for (const auto& [record, version] : actual) {
      if (!chains_.contains(record)) {
        return fmt::format("final state: record {} ends in version {:#x}, which no committed transaction wrote",
                           record_name(record), version);
      }
    }
    return std::nullopt;
  }

  void edge(std::size_t from, std::size_t to, EdgeKind kind, LockId record, TxnId version, LockRange range = {}) {
    if (from == to) return;
    preds_[to].push_back(edges_.size());
    succs_[from].push_back(to);
    edges_.push_back({from, to, kind, record, version, range});
  }

  void add_item_edges() {
    for (std::size_t i = 0; i < history_.size(); ++i) {
      for (const RecordWrite& w : history_[i].writes) {
        if (w.version != 0) edge(index_.at(w.version), i, EdgeKind::write_write, w.record, w.version);
      }
      for (const RecordVersion& r : history_[i].reads) {
        if (r.version != 0) edge(index_.at(r.version), i, EdgeKind::write_read, r.record, r.version);
        const auto next = next_writer_.find({r.record, r.version});
        if (next != next_writer_.end()) edge(i, next->second, EdgeKind::read_write, r.record, r.version);
      }
    }
  }

  // Every written record in a range that the reader did not read or write
  // itself was absent to it; where its chain has one absent version, that is
  // the one it saw. Walking down from the range's end, every missed insert
  // gives an edge, but only the nearest kRangeDeletesOrdered deletes do:
  // each delete further down is one that the nearer deleters' own range
  // reads already saw (TPC-C's Delivery scans a queue whose deleted head
  // grows with every delivery: all of them would make the graph quadratic).
  void add_range_edges(std::size_t i) {
    const CommittedTxn& t = history_[i];
    std::unordered_set<LockId> touched;
    for (const RecordVersion& r : t.reads) touched.insert(r.record);
    for (const RecordWrite& w : t.writes) touched.insert(w.record);
    for (const LockRange& range : t.range_reads) {
      std::size_t deletes = 0;
      auto end = chains_.upper_bound(range.last);
      for (auto it = end; it != chains_.begin() && std::prev(it)->first >= range.first;) {
        --it;
        if (touched.contains(it->first)) continue;
        const Chain& chain = it->second;
        if (std::count(chain.present.begin(), chain.present.end(), false) != 1) continue;
        const auto seen = static_cast<std::size_t>(std::find(chain.present.begin(), chain.present.end(), false) -
                                                   chain.present.begin());
        const std::size_t before = edges_.size();
        if (seen > 0 && deletes++ < kRangeDeletesOrdered) {
          edge(chain.writers[seen], i, EdgeKind::range_write_read, it->first, chain.versions[seen], range);
        }
        if (seen + 1 < chain.versions.size()) {
          edge(i, chain.writers[seen + 1], EdgeKind::range_read_write, it->first, chain.versions[seen], range);
        }
        range_edges_ += edges_.size() - before;
      }
    }
  }

  Problem check_graph() {
    preds_.assign(history_.size(), {});
    succs_.assign(history_.size(), {});
    add_item_edges();
    for (std::size_t i = 0; i < history_.size(); ++i) add_range_edges(i);
    std::vector<std::size_t> in_degree(history_.size());
    for (std::size_t i = 0; i < history_.size(); ++i) in_degree[i] = preds_[i].size();
    std::vector<std::size_t> ready;
    for (std::size_t i = 0; i < history_.size(); ++i)
      if (in_degree[i] == 0) ready.push_back(i);
    std::vector<bool> left(history_.size(), true);
    std::size_t ordered = 0;
    while (!ready.empty()) {
      const std::size_t t = ready.back();
      ready.pop_back();
      left[t] = false;
      ++ordered;
      for (std::size_t s : succs_[t])
        if (--in_degree[s] == 0) ready.push_back(s);
    }
    if (ordered == history_.size()) return std::nullopt;
    return describe_cycle(left);
  }

  std::string why(const Edge& e) const {
    const std::string from = id(e.from), to = id(e.to), record = record_name(e.record);
    switch (e.kind) {
      case EdgeKind::write_write:
        return fmt::format("{} overwrote {}'s version of {}", to, from, record);
      case EdgeKind::write_read:
        return fmt::format("{} read {}'s version of {}", to, from, record);
      case EdgeKind::read_write:
        return fmt::format("{} read {} in version {:#x}, which {} overwrote", from, record, e.version, to);
      case EdgeKind::range_write_read:
        return fmt::format("{}'s range read {} saw {} absent, as {} had left it", to, range_name(e.range), record, from);
      case EdgeKind::range_read_write:
        return fmt::format("{}'s range read {} saw {} absent, and {} then inserted it: a phantom", from,
                           range_name(e.range), record, to);
    }
    return "?";
  }

  // Every node left after Kahn's algorithm has a predecessor left: walking
  // back along such edges must close a cycle.
  std::string describe_cycle(const std::vector<bool>& left) const {
    std::size_t at = static_cast<std::size_t>(std::find(left.begin(), left.end(), true) - left.begin());
    std::vector<std::size_t> seen_at(history_.size(), SIZE_MAX);
    std::vector<std::size_t> path;  // edges, walked backwards
    while (seen_at[at] == SIZE_MAX) {
      seen_at[at] = path.size();
      for (std::size_t e : preds_[at]) {
        if (left[edges_[e].from]) {
          path.push_back(e);
          at = edges_[e].from;
          break;
        }
      }
    }
    const std::vector<std::size_t> cycle(path.begin() + static_cast<std::ptrdiff_t>(seen_at[at]), path.end());
    std::string text = fmt::format("serializability: the serialization graph has a cycle of {} transactions: {}",
                                   cycle.size(), id(at));
    for (auto e = cycle.rbegin(); e != cycle.rend(); ++e) text += fmt::format(" -> {} ({})", id(edges_[*e].to), why(edges_[*e]));
    return text;
  }

  const std::vector<CommittedTxn>& history_;
  const std::vector<RecordVersion>& finals_;
  const std::vector<ParticipantVote>& votes_;
  const RecordNamer& name_;
  std::unordered_map<TxnId, std::size_t> index_;
  std::set<VersionKey> written_by_;                 // (record, writer)
  std::map<VersionKey, std::size_t> next_writer_;   // (record, replaced version) -> writer
  std::map<VersionKey, WriteKind> kind_of_;         // (record, writer)
  std::map<LockId, std::size_t> writes_of_;         // record -> committed writes
  std::map<LockId, Chain> chains_;
  std::vector<Edge> edges_;
  std::vector<std::vector<std::size_t>> preds_;  // edge indices
  std::vector<std::vector<std::size_t>> succs_;  // nodes
  std::size_t range_edges_ = 0;
};

}  // namespace

std::string lock_id_name(LockId record) {
  const LockName n = LockSpace::name_of(record);
  return fmt::format("p{}/t{}/k{}", n.partition, n.table, n.key);
}

HistoryCheck check_history(const std::vector<CommittedTxn>& history, const std::vector<RecordVersion>& final_versions,
                           bool require_serializable, const std::vector<ParticipantVote>& votes,
                           const RecordNamer& name) {
  return HistoryChecker(history, final_versions, votes, name).run(require_serializable);
}

}  // namespace hpcdb
