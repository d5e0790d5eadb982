#include "hpcdb/txn/serializability_checker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace hpcdb {
namespace {

struct VersionKey {
  LockId record;
  TxnId version;
  bool operator<(const VersionKey& o) const { return record != o.record ? record < o.record : version < o.version; }
};

HistoryCheck fail(HistoryCheck c, std::string problem) {
  c.ok = false;
  c.problem = std::move(problem);
  return c;
}

// A cycle in the graph, for the message: walks from a node left after Kahn's
// algorithm (every such node has a predecessor left too).
std::string describe_cycle(const std::vector<std::vector<std::size_t>>& preds, const std::vector<bool>& left,
                           const std::vector<CommittedTxn>& history) {
  std::size_t at = static_cast<std::size_t>(std::find(left.begin(), left.end(), true) - left.begin());
  std::vector<std::size_t> seen_at(left.size(), SIZE_MAX);
  std::vector<std::size_t> path;
  while (seen_at[at] == SIZE_MAX) {
    seen_at[at] = path.size();
    path.push_back(at);
    for (std::size_t p : preds[at]) {
      if (left[p]) {
        at = p;
        break;
      }
    }
  }
  std::string text;
  for (std::size_t i = path.size(); i-- > seen_at[at];) text += fmt::format("{:#x} -> ", history[path[i]].id);
  return text + fmt::format("{:#x}", history[at].id);
}

}  // namespace

HistoryCheck check_history(const std::vector<CommittedTxn>& history, const std::vector<RecordVersion>& final_versions,
                           bool require_serializable) {
  HistoryCheck c;
  c.transactions = history.size();
  std::unordered_map<TxnId, std::size_t> index;
  for (std::size_t i = 0; i < history.size(); ++i) {
    if (history[i].id == 0 || !index.emplace(history[i].id, i).second) {
      return fail(c, fmt::format("transaction id {:#x} is 0 or committed twice", history[i].id));
    }
  }
  // Who wrote which version, and who overwrote it.
  std::map<VersionKey, std::size_t> next_writer;  // (record, replaced version) -> writer
  std::set<LockId> written;
  for (std::size_t i = 0; i < history.size(); ++i) {
    for (const RecordVersion& w : history[i].writes) {
      if (w.version != 0 && !index.contains(w.version)) {
        return fail(c, fmt::format("transaction {:#x} overwrote record {} in version {:#x}, which never committed",
                                   history[i].id, w.record, w.version));
      }
      const auto [it, fresh] = next_writer.emplace(VersionKey{w.record, w.version}, i);
      if (!fresh) {
        return fail(c, fmt::format("lost update: transactions {:#x} and {:#x} both overwrote version {:#x} of record {}",
                                   history[it->second].id, history[i].id, w.version, w.record));
      }
      written.insert(w.record);
    }
  }
  auto wrote = [&](std::size_t writer, LockId record) {
    const auto& ws = history[writer].writes;
    return std::any_of(ws.begin(), ws.end(), [&](const RecordVersion& w) { return w.record == record; });
  };
  for (const CommittedTxn& t : history) {
    for (const RecordVersion& r : t.reads) {
      if (r.version == 0) continue;
      const auto w = index.find(r.version);
      if (w == index.end() || !wrote(w->second, r.record)) {
        return fail(c, fmt::format("transaction {:#x} read version {:#x} of record {}, which no committed transaction "
                                   "wrote (a dirty or aborted read)",
                                   t.id, r.version, r.record));
      }
    }
  }
  // Final versions: the end of each record's chain.
  std::map<LockId, TxnId> expected;
  for (const LockId record : written) {
    TxnId version = 0;
    for (auto it = next_writer.find({record, version}); it != next_writer.end();
         it = next_writer.find({record, version})) {
      version = history[it->second].id;
    }
    expected[record] = version;
  }
  std::map<LockId, TxnId> actual;
  for (const RecordVersion& f : final_versions) actual[f.record] = f.version;
  for (const auto& [record, version] : expected) {
    const TxnId found = actual.contains(record) ? actual[record] : 0;
    if (found != version) {
      return fail(c, fmt::format("record {} ends in version {:#x}, but its committed writes end in {:#x}", record, found,
                                 version));
    }
  }
  for (const auto& [record, version] : actual) {
    if (!expected.contains(record)) {
      return fail(c, fmt::format("record {} ends in version {:#x}, which no committed transaction wrote", record,
                                 version));
    }
  }
  if (!require_serializable) return c;

  // The serialization graph.
  std::vector<std::vector<std::size_t>> succs(history.size()), preds(history.size());
  auto edge = [&](std::size_t from, std::size_t to) {
    if (from == to) return;
    succs[from].push_back(to);
    preds[to].push_back(from);
    ++c.edges;
  };
  for (std::size_t i = 0; i < history.size(); ++i) {
    for (const RecordVersion& w : history[i].writes) {
      if (w.version != 0) edge(index[w.version], i);  // write -> write
    }
    for (const RecordVersion& r : history[i].reads) {
      if (r.version != 0) edge(index[r.version], i);  // write -> read
      const auto next = next_writer.find({r.record, r.version});
      if (next != next_writer.end()) edge(i, next->second);  // read -> the next write
    }
  }
  std::vector<std::size_t> in_degree(history.size());
  for (std::size_t i = 0; i < history.size(); ++i) in_degree[i] = preds[i].size();
  std::vector<std::size_t> ready;
  for (std::size_t i = 0; i < history.size(); ++i)
    if (in_degree[i] == 0) ready.push_back(i);
  std::vector<bool> left(history.size(), true);
  std::size_t ordered = 0;
  while (!ready.empty()) {
    const std::size_t t = ready.back();
    ready.pop_back();
    left[t] = false;
    ++ordered;
    for (std::size_t s : succs[t])
      if (--in_degree[s] == 0) ready.push_back(s);
  }
  if (ordered != history.size()) {
    return fail(c, "not serializable: the serialization graph has a cycle " + describe_cycle(preds, left, history));
  }
  return c;
}

}  // namespace hpcdb
