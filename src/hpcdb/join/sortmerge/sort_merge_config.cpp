#include "hpcdb/join/sortmerge/sort_merge_config.hpp"

#include "hpcdb/core/named_values.hpp"

namespace hpcdb {
namespace {

constexpr NamedValues<SendOrder, 2> kSendOrderNames{{{SendOrder::shifted, "shifted"}, {SendOrder::natural, "natural"}}};
constexpr NamedValues<Splitters, 2> kSplittersNames{{{Splitters::equal, "equal"}, {Splitters::sampled, "sampled"}}};

}  // namespace

std::string to_string(SendOrder value) { return name_of(value, kSendOrderNames); }
std::string to_string(Splitters value) { return name_of(value, kSplittersNames); }
SendOrder parse_send_order(const std::string& text) { return value_named(text, kSendOrderNames, "--send-order"); }
Splitters parse_splitters(const std::string& text) { return value_named(text, kSplittersNames, "--splitters"); }

void validate(const SortMergeJoinConfig& c) {
  validate_worker_threads(c.threads);
  validate_input_chunks(c.input_chunks);
  require_option(c.run_length >= 16 && c.run_length <= (std::size_t{1} << 28),
                 "--run-length must be between 16 and 2^28 tuples");
  require_option(c.merge_fan_in >= 2 && c.merge_fan_in <= 1024, "--merge-fan-in must be between 2 and 1024");
  require_option(c.subranges <= 4096, "--subranges must be at most 4096");
}

}  // namespace hpcdb
