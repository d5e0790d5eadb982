#pragma once
// Writes a command's JSON document to a file, or to standard output for "-".
#include <nlohmann/json.hpp>

#include <string>

namespace hpcdb {

void write_json(const std::string& target, const nlohmann::ordered_json& document);

}  // namespace hpcdb
