#include "hpcdb/storage/deployment.hpp"

#include <algorithm>
#include <sstream>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

DeploymentMode parse_deployment(const std::string& text) {
  if (text == "local") return DeploymentMode::local;
  if (text == "decoupled") return DeploymentMode::decoupled;
  throw UsageError("--deployment must be local or decoupled, not '" + text + "'");
}

std::string to_string(DeploymentMode mode) { return mode == DeploymentMode::local ? "local" : "decoupled"; }

Deployment::Deployment(DeploymentMode mode, int ranks, int storage_engines)
    : mode_(mode), ranks_(ranks), storage_(storage_engines) {
  if (storage_engines < 1) throw UsageError("--storage-ranks must be at least 1");
  if (mode == DeploymentMode::local && storage_engines != ranks) {
    throw UsageError("--deployment local runs a storage engine and a query engine on every rank: --storage-ranks must "
                     "equal the number of ranks (" + std::to_string(ranks) + ") or be left out");
  }
  if (mode == DeploymentMode::decoupled && storage_engines >= ranks) {
    throw UsageError("--deployment decoupled needs at least one query-engine rank beside the " +
                     std::to_string(storage_engines) + " storage rank(s): run with more ranks (mpirun -np " +
                     std::to_string(storage_engines + 1) + ") or fewer --storage-ranks");
  }
}

Placement Placement::standard(std::size_t tables, int storage_engines) {
  Placement p;
  p.engines_.resize(tables);
  for (int e = 0; e < storage_engines; ++e) p.engines_[0].push_back(e);
  for (std::size_t t = 1; t < tables; ++t) p.engines_[t] = {static_cast<int>((t - 1) % static_cast<std::size_t>(storage_engines))};
  return p;
}

Placement Placement::parse(const std::string& text, const std::vector<std::string>& tables, int storage_engines) {
  Placement p = standard(tables.size(), storage_engines);
  std::istringstream items(text);
  std::string item;
  while (std::getline(items, item, ';')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos) {
      throw UsageError("--placement takes TABLE=ENGINE,ENGINE;... (storage engines 0.." +
                       std::to_string(storage_engines - 1) + "), not '" + item + "'");
    }
    const std::string name = item.substr(0, eq);
    const auto table = std::find(tables.begin(), tables.end(), name);
    if (table == tables.end()) throw UsageError("--placement names table '" + name + "', which does not exist");
    std::vector<int> engines;
    std::istringstream list(item.substr(eq + 1));
    std::string engine;
    while (std::getline(list, engine, ',')) {
      int e = -1;
      try {
        std::size_t used = 0;
        e = std::stoi(engine, &used);
        if (used != engine.size()) e = -1;
      } catch (const std::exception&) {
        e = -1;
      }
      if (e < 0 || e >= storage_engines) {
        throw UsageError("--placement puts " + name + " on storage engine '" + engine + "'; there are engines 0.." +
                         std::to_string(storage_engines - 1));
      }
      if (std::find(engines.begin(), engines.end(), e) != engines.end()) {
        throw UsageError("--placement puts two fragments of " + name + " on storage engine " + std::to_string(e));
      }
      engines.push_back(e);
    }
    if (engines.empty()) throw UsageError("--placement gives table " + name + " no storage engine");
    p.engines_[static_cast<std::size_t>(table - tables.begin())] = engines;
  }
  return p;
}

int Placement::fragment_on(std::size_t table, int storage_engine) const {
  const auto& e = engines_[table];
  const auto it = std::find(e.begin(), e.end(), storage_engine);
  return it == e.end() ? -1 : static_cast<int>(it - e.begin());
}

std::string Placement::describe(const std::vector<std::string>& table_names) const {
  std::string text;
  for (std::size_t t = 0; t < engines_.size(); ++t) {
    if (t > 0) text += ";";
    text += table_names[t] + "=";
    for (std::size_t i = 0; i < engines_[t].size(); ++i) {
      if (i > 0) text += ',';
      text += std::to_string(engines_[t][i]);
    }
  }
  return text;
}

FragmentKeys fragment_keys(std::int64_t keys, int fragment, int fragments) {
  const auto f = static_cast<std::int64_t>(fragment);
  const auto n = static_cast<std::int64_t>(fragments);
  return {keys / n * f + keys % n * f / n, keys / n * (f + 1) + keys % n * (f + 1) / n};
}

}  // namespace hpcdb
