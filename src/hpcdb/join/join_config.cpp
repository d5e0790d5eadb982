#include "hpcdb/join/join_config.hpp"

namespace hpcdb {

std::string to_string(Assignment assignment) {
  return assignment == Assignment::round_robin ? "round-robin" : "skew-aware";
}

std::string to_string(SendOrder order) { return order == SendOrder::shifted ? "shifted" : "natural"; }

std::string to_string(Splitters splitters) { return splitters == Splitters::equal ? "equal" : "sampled"; }

std::string to_string(Compression compression) { return compression == Compression::automatic ? "auto" : "off"; }

}  // namespace hpcdb
