#pragma once
// The sort-merge join's options (what the command line sets), checked by validate().
#include <cstddef>
#include <string>

#include "hpcdb/join/join_config.hpp"

namespace hpcdb {

enum class SendOrder { shifted, natural };
enum class Splitters { equal, sampled };

std::string to_string(SendOrder value);  // shifted, natural
std::string to_string(Splitters value);  // equal, sampled
SendOrder parse_send_order(const std::string& text);
Splitters parse_splitters(const std::string& text);

struct SortMergeJoinConfig : JoinBasics {
  std::size_t run_length = 16384;  // tuples per sorted run
  unsigned merge_fan_in = 16;      // runs merged at once
  unsigned subranges = 0;          // key sub-ranges per rank, merged apart; 0 = chosen from the sizes
  SendOrder send_order = SendOrder::shifted;  // worker i starts with range i+1
  Splitters splitters = Splitters::equal;     // equal key ranges, or sampled splitters
  unsigned threads = 1;
  bool force_put = false;
  bool share_node_work = true;  // co-located ranks share the passes over the input
  unsigned input_chunks = 0;    // chunks per rank fragment and relation; 0 = chosen from the sizes
};

void validate(const SortMergeJoinConfig& config);

}  // namespace hpcdb
