#include "hpcdb/apps/hpcdb/json_output.hpp"

#include "hpcdb/core/output_file.hpp"

namespace hpcdb {

void write_json(const std::string& target, const nlohmann::ordered_json& document) {
  // File names are not always UTF-8; JSON must be.
  const std::string text = document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  write_output_file(target, target == "-" ? "JSON" : "JSON file", text);
}

nlohmann::ordered_json encodings_json(const std::vector<std::pair<std::string, std::string>>& encodings) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [column, encoding] : encodings) j[column] = encoding;
  return j;
}

}  // namespace hpcdb
