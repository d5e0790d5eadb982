#include "hpcdb/join/radix/radix_config.hpp"

#include "hpcdb/core/named_values.hpp"

namespace hpcdb {
namespace {

constexpr NamedValues<Assignment, 2> kAssignmentNames{
    {{Assignment::round_robin, "round-robin"}, {Assignment::skew_aware, "skew-aware"}}};

}  // namespace

std::string to_string(Assignment value) { return name_of(value, kAssignmentNames); }
Assignment parse_assignment(const std::string& text) { return value_named(text, kAssignmentNames, "--assignment"); }

void validate(const RadixJoinConfig& c) {
  validate_worker_threads(c.threads);
  validate_input_chunks(c.input_chunks);
  require_option(c.buffers_per_partition >= 1 && c.buffers_per_partition <= 64,
                 "--buffers-per-partition must be between 1 and 64");
  require_option(c.buffer_bytes >= 64 && c.buffer_bytes % 64 == 0 && c.buffer_bytes <= kMaxJoinBufferBytes,
                 "--buffer-size must be a multiple of 64 bytes between 64 B and 1 GiB");
  require_option(c.network_bits <= 24, "--network-bits must be at most 24");
  require_option(c.local_bits <= 24, "--local-bits must be at most 24");
  require_option(c.exchange.chunk_bytes >= 64 && c.exchange.chunk_bytes <= kMaxJoinBufferBytes,
                 "--exchange-chunk must be between 64 B and 1 GiB");
  require_option(c.scheduled || c.exchange.transport != ExchangeTransport::messages,
                 "--exchange messages ships whole partitions after a local pass: give it a --schedule "
                 "(synchronized, unsynchronized or random)");
}

}  // namespace hpcdb
