#pragma once
// Writes a command's JSON document to a file (complete or not at all,
// core/output_file.hpp), or to standard output for "-"; throws Error when
// the output fails.
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace hpcdb {

void write_json(const std::string& target, const nlohmann::ordered_json& document);

// A written file's column encodings as {"column": "encoding", ...}.
nlohmann::ordered_json encodings_json(const std::vector<std::pair<std::string, std::string>>& encodings);

}  // namespace hpcdb
