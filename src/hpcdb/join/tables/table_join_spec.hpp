#pragma once
// What a join of two tables produces, resolved from the two schemas before
// any row is read: the key columns of each side (checked to exist and to be
// comparable), and the result's columns, each taken from one side's column
// under its result name.
//
// Result columns (SELECT * without a list): every column of the left side,
// then every column of the right side (of the left side only for semi and
// anti joins), both sides' key columns included. A name both sides have gets
// a suffix on both sides ("_l" and "_r" by default, as the Python API's
// suffixes=("_l", "_r")). A list of columns names result columns (after
// suffixes) in the order wanted.
#include <arrow/type.h>

#include <string>
#include <utility>
#include <vector>

namespace hpcdb {

enum class JoinHow { inner, left, right, full, semi, anti };

JoinHow parse_join_how(const std::string& text);  // UsageError for others
std::string to_string(JoinHow how);
bool keeps_unmatched_left(JoinHow how);   // left, full, anti
bool keeps_unmatched_right(JoinHow how);  // right, full
bool outputs_right_columns(JoinHow how);  // not semi, anti

enum class JoinSide { left, right };

struct ResultColumn {
  JoinSide side = JoinSide::left;
  std::string source;  // the column's name in its table
  std::string name;    // in the result
};

struct JoinKeys {
  std::vector<std::pair<std::string, std::string>> on;  // (left column, right column)
};

struct TableJoinSpec {
  JoinHow how = JoinHow::inner;
  std::vector<std::string> left_keys;
  std::vector<std::string> right_keys;
  std::vector<ResultColumn> columns;
  // The columns each side must read: its result columns, then its keys.
  std::vector<std::string> left_reads;
  std::vector<std::string> right_reads;
};

// "a=b,c=d" or "a,c" (the same names on both sides) (UsageError otherwise).
JoinKeys parse_join_keys(const std::string& text);

// UsageError for a missing column, key types that cannot be compared
// (unless `check_key_types` is false: CSV columns have their types only once
// read), a result column named twice or unknown.
TableJoinSpec resolve_join_spec(const arrow::Schema& left, const arrow::Schema& right, const JoinKeys& keys, JoinHow how,
                                const std::vector<std::string>& columns,
                                const std::pair<std::string, std::string>& suffixes = {"_l", "_r"},
                                bool check_key_types = true);

}  // namespace hpcdb
