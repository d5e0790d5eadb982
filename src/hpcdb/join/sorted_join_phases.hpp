#pragma once
// The phases of the joins of sorted fragments (cyclo, broadcast), named
// once: as their runs report them, as the model predicts them, and as a
// testing aid may name one to fail in.
#include <string>
#include <vector>

namespace hpcdb::sorted_join_phase {

inline constexpr const char* sort = "sort";              // R (and the own S part) sorted
inline constexpr const char* distribute = "distribute";  // every S part but the last, joined as it arrives
inline constexpr const char* end = "end";                // the last part

inline std::vector<std::string> all() { return {sort, distribute, end}; }

}  // namespace hpcdb::sorted_join_phase
