#pragma once
// The sort-merge join's phases, named once: as its runs report them, as the
// model predicts them, and as a testing aid may name one to fail in.
#include <string>
#include <vector>

namespace hpcdb::sort_merge_phase {

inline constexpr const char* partition = "partition";
inline constexpr const char* window_allocation = "window_allocation";
inline constexpr const char* sort = "sort";
inline constexpr const char* sort_wait = "sort_wait";
inline constexpr const char* merge = "merge";
inline constexpr const char* match = "match";

inline std::vector<std::string> all() { return {partition, window_allocation, sort, sort_wait, merge, match}; }

}  // namespace hpcdb::sort_merge_phase
