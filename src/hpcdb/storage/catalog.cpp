#include "hpcdb/storage/catalog.hpp"

#include "hpcdb/core/error.hpp"

namespace hpcdb {

std::vector<std::string> Catalog::names() const {
  std::vector<std::string> n;
  for (const CatalogTable& t : tables) n.push_back(t.name);
  return n;
}

int Catalog::table_id(const std::string& name) const {
  for (std::size_t i = 0; i < tables.size(); ++i) {
    if (tables[i].name == name) return static_cast<int>(i);
  }
  std::string known;
  for (const CatalogTable& t : tables) {
    if (!known.empty()) known += ", ";
    known += t.name;
  }
  throw UsageError("there is no table '" + name + "' (tables: " + known + ")");
}

}  // namespace hpcdb
