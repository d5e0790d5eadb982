#include "hpcdb/join/cyclo/cyclo_config.hpp"

namespace hpcdb {

void validate(const CycloJoinConfig& c) {
  require_option(c.chunk_bytes >= 64 && c.chunk_bytes <= kMaxJoinBufferBytes, "--chunk-size must be between 64 B and 1 GiB");
}

}  // namespace hpcdb
