#pragma once
// Where storage engines and query engines run, and which storage engine
// holds which fragment of which table. Query plans name tables only; this
// is what binds a table to ranks, decided once from the options on every
// rank alike.
//
// decoupled: ranks 0 .. S-1 are storage engines, ranks S .. N-1 query engines.
// local:     every rank is both (a query engine reaches the fragments in its
//            own process by function calls, the others over the network).
//
// A table placed on k storage engines is split into k fragments by key
// (orders for lineorder): fragment f holds keys [K f / k, K (f + 1) / k).
#include <cstdint>
#include <string>
#include <vector>

namespace hpcdb {

enum class DeploymentMode { local, decoupled };
DeploymentMode parse_deployment(const std::string& text);  // UsageError naming --deployment
std::string to_string(DeploymentMode mode);

class Deployment {
 public:
  // UsageError when the ranks cannot hold `storage_engines` storage engines
  // and at least one query engine.
  Deployment(DeploymentMode mode, int ranks, int storage_engines);

  DeploymentMode mode() const { return mode_; }
  int ranks() const { return ranks_; }
  int storage_engines() const { return storage_; }
  int query_engines() const { return mode_ == DeploymentMode::local ? ranks_ : ranks_ - storage_; }
  int storage_rank(int storage_engine) const { return storage_engine; }
  int query_rank(int engine) const { return mode_ == DeploymentMode::local ? engine : storage_ + engine; }
  bool runs_storage(int rank) const { return rank < storage_; }
  bool runs_query(int rank) const { return mode_ == DeploymentMode::local || rank >= storage_; }
  int engine_of_rank(int rank) const { return mode_ == DeploymentMode::local ? rank : rank - storage_; }

 private:
  DeploymentMode mode_;
  int ranks_;
  int storage_;
};

class Placement {
 public:
  // Every table on the storage engines `text` gives ("lineorder=0,1;part=1"),
  // the others as standard() places them. UsageError for unknown tables,
  // engines out of range, or an engine named twice for one table.
  static Placement parse(const std::string& text, const std::vector<std::string>& tables, int storage_engines);
  // The fact table (table 0) on every storage engine; each other table t on
  // engine (t - 1) mod S.
  static Placement standard(std::size_t tables, int storage_engines);

  std::size_t tables() const { return engines_.size(); }
  const std::vector<int>& engines_of(std::size_t table) const { return engines_[table]; }
  // The fragment of `table` on `storage_engine`, or -1.
  int fragment_on(std::size_t table, int storage_engine) const;
  std::string describe(const std::vector<std::string>& table_names) const;

 private:
  std::vector<std::vector<int>> engines_;  // by table: the engine of each fragment
};

// Keys [first, end) of fragment f of `fragments` of a table with `keys` keys.
struct FragmentKeys {
  std::int64_t first = 0;
  std::int64_t end = 0;
};
FragmentKeys fragment_keys(std::int64_t keys, int fragment, int fragments);

}  // namespace hpcdb
