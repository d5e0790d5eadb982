#pragma once
// What `hpcdb join` on tables prints (a summary for people) and writes with
// --json (one object for programs).
#include <nlohmann/json.hpp>

#include <ostream>

#include "hpcdb/api/table_join.hpp"

namespace hpcdb {

void print_table_join(std::ostream& out, const TableJoinRequest& request, const TableJoinResult& result, int ranks);

nlohmann::ordered_json table_join_json(const TableJoinRequest& request, const TableJoinResult& result, int ranks);

}  // namespace hpcdb
