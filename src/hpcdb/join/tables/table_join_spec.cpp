#include "hpcdb/join/tables/table_join_spec.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "hpcdb/core/error.hpp"
#include "hpcdb/table/column_types.hpp"

namespace hpcdb {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

const arrow::Field& field_of(const arrow::Schema& schema, const std::string& name, const std::string& side) {
  const int index = schema.GetFieldIndex(name);
  if (index < 0) {
    std::string have;
    for (const auto& field : schema.fields()) have += (have.empty() ? "" : ", ") + field->name();
    throw UsageError("the " + side + " table has no column '" + name + "' (it has " + have + ")");
  }
  return *schema.field(index);
}

void add_reads(std::vector<std::string>& reads, const std::string& name) {
  if (std::find(reads.begin(), reads.end(), name) == reads.end()) reads.push_back(name);
}

}  // namespace

JoinHow parse_join_how(const std::string& text) {
  static const std::map<std::string, JoinHow> names = {{"inner", JoinHow::inner}, {"left", JoinHow::left},
                                                       {"right", JoinHow::right}, {"full", JoinHow::full},
                                                       {"semi", JoinHow::semi},   {"anti", JoinHow::anti}};
  if (auto it = names.find(text); it != names.end()) return it->second;
  throw UsageError("--how must be inner, left, right, full, semi or anti, not '" + text + "'");
}

std::string to_string(JoinHow how) {
  switch (how) {
    case JoinHow::inner: return "inner";
    case JoinHow::left: return "left";
    case JoinHow::right: return "right";
    case JoinHow::full: return "full";
    case JoinHow::semi: return "semi";
    case JoinHow::anti: return "anti";
  }
  return "unknown";
}

bool keeps_unmatched_left(JoinHow how) { return how == JoinHow::left || how == JoinHow::full || how == JoinHow::anti; }
bool keeps_unmatched_right(JoinHow how) { return how == JoinHow::right || how == JoinHow::full; }
bool outputs_right_columns(JoinHow how) { return how != JoinHow::semi && how != JoinHow::anti; }

JoinKeys parse_join_keys(const std::string& text) {
  JoinKeys keys;
  for (const std::string& pair : split(text, ',')) {
    const std::vector<std::string> sides = split(pair, '=');
    if (sides.size() == 1 && !sides[0].empty()) keys.on.emplace_back(sides[0], sides[0]);
    else if (sides.size() == 2 && !sides[0].empty() && !sides[1].empty()) keys.on.emplace_back(sides[0], sides[1]);
    else throw UsageError("--on takes LEFT=RIGHT column pairs separated by commas (or a column both tables have), not '" + text + "'");
  }
  if (keys.on.empty()) throw UsageError("--on names no key columns");
  return keys;
}

TableJoinSpec resolve_join_spec(const arrow::Schema& left, const arrow::Schema& right, const JoinKeys& keys, JoinHow how,
                                const std::vector<std::string>& columns,
                                const std::pair<std::string, std::string>& suffixes, bool check_key_types) {
  TableJoinSpec spec;
  spec.how = how;
  for (const auto& [l, r] : keys.on) {
    const arrow::Field& lf = field_of(left, l, "left");
    const arrow::Field& rf = field_of(right, r, "right");
    if (check_key_types && key_class_of(*lf.type()) == KeyClass::none) {
      throw UsageError("left key column '" + l + "' has type " + lf.type()->ToString() +
                       "; keys are integers, date32, timestamps or strings");
    }
    if (check_key_types && !key_types_compatible(*lf.type(), *rf.type())) {
      throw UsageError("key columns differ in type: left '" + l + "' is " + lf.type()->ToString() + ", right '" + r +
                       "' is " + rf.type()->ToString());
    }
    spec.left_keys.push_back(l);
    spec.right_keys.push_back(r);
  }
  // Every result column under its name (suffixed where both sides have it).
  std::set<std::string> left_names, right_names;
  for (const auto& f : left.fields()) left_names.insert(f->name());
  if (outputs_right_columns(how)) {
    for (const auto& f : right.fields()) right_names.insert(f->name());
  }
  std::vector<ResultColumn> all;
  for (const auto& f : left.fields()) {
    all.push_back({JoinSide::left, f->name(), right_names.count(f->name()) ? f->name() + suffixes.first : f->name()});
  }
  if (outputs_right_columns(how)) {
    for (const auto& f : right.fields()) {
      all.push_back({JoinSide::right, f->name(), left_names.count(f->name()) ? f->name() + suffixes.second : f->name()});
    }
  }
  std::set<std::string> result_names;
  for (const ResultColumn& c : all) {
    if (!result_names.insert(c.name).second) {
      throw UsageError("result column '" + c.name + "' would appear twice: choose other suffixes");
    }
  }
  if (columns.empty()) {
    spec.columns = all;
  } else {
    std::set<std::string> asked;
    for (const std::string& name : columns) {
      if (!asked.insert(name).second) throw UsageError("--columns names '" + name + "' twice");
      auto it = std::find_if(all.begin(), all.end(), [&](const ResultColumn& c) { return c.name == name; });
      if (it == all.end()) {
        std::string have;
        for (const ResultColumn& c : all) have += (have.empty() ? "" : ", ") + c.name;
        throw UsageError("the result has no column '" + name + "' (it has " + have + ")");
      }
      spec.columns.push_back(*it);
    }
  }
  for (const ResultColumn& c : spec.columns) add_reads(c.side == JoinSide::left ? spec.left_reads : spec.right_reads, c.source);
  for (const std::string& k : spec.left_keys) add_reads(spec.left_reads, k);
  for (const std::string& k : spec.right_keys) add_reads(spec.right_reads, k);
  return spec;
}

}  // namespace hpcdb
