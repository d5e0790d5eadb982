#pragma once
// The ring (cyclo) join's options (what the command line sets), checked by validate().
#include <cstddef>

#include "hpcdb/join/join_config.hpp"

namespace hpcdb {

struct CycloJoinConfig : JoinBasics {
  bool presort = true;                // S parts travel sorted; else each rank sorts every visiting part
  std::size_t chunk_bytes = 4 << 20;  // bytes per put of a part
};

void validate(const CycloJoinConfig& config);

}  // namespace hpcdb
