#pragma once
// Writes a command's JSON document to a file (complete or not at all,
// core/output_file.hpp), or to standard output for "-"; throws Error when
// the output fails.
#include <nlohmann/json.hpp>

#include <string>

namespace hpcdb {

void write_json(const std::string& target, const nlohmann::ordered_json& document);

}  // namespace hpcdb
