#include "hpcdb/apps/hpcdb/json_output.hpp"

#include <fstream>
#include <iostream>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

void write_json(const std::string& target, const nlohmann::ordered_json& document) {
  const std::string text = document.dump(2) + "\n";
  if (target == "-") {
    std::cout << text << std::flush;
    return;
  }
  std::ofstream out(target);
  out << text;
  if (!out) throw UsageError("cannot write JSON file '" + target + "'");
}

}  // namespace hpcdb
