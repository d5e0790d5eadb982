#include "hpcdb/join/join_config.hpp"

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/udp_socket.hpp"

namespace hpcdb {
namespace {

constexpr std::size_t kGiB = std::size_t{1} << 30;

void require(bool ok, const char* message) {
  if (!ok) throw UsageError(message);
}

void validate_threads(unsigned threads) { require(threads >= 1 && threads <= 1024, "--threads must be between 1 and 1024"); }

void validate_input_chunks(unsigned chunks) { require(chunks <= 4096, "--input-chunks must be at most 4096"); }

}  // namespace

void validate(const RadixJoinConfig& c) {
  validate_threads(c.threads);
  validate_input_chunks(c.input_chunks);
  require(c.buffers_per_partition >= 1 && c.buffers_per_partition <= 64,
          "--buffers-per-partition must be between 1 and 64");
  require(c.buffer_bytes >= 64 && c.buffer_bytes % 64 == 0 && c.buffer_bytes <= kGiB,
          "--buffer-size must be a multiple of 64 bytes between 64 B and 1 GiB");
  require(c.network_bits <= 24, "--network-bits must be at most 24");
  require(c.local_bits <= 24, "--local-bits must be at most 24");
  require(c.exchange.chunk_bytes >= 64 && c.exchange.chunk_bytes <= kGiB,
          "--exchange-chunk must be between 64 B and 1 GiB");
  require(c.scheduled || c.exchange.transport != ExchangeTransport::messages,
          "--exchange messages ships whole partitions after a local pass: give it a --schedule "
          "(synchronized, unsynchronized or random)");
}

void validate(const SortMergeJoinConfig& c) {
  validate_threads(c.threads);
  validate_input_chunks(c.input_chunks);
  require(c.run_length >= 16 && c.run_length <= (std::size_t{1} << 28), "--run-length must be between 16 and 2^28 tuples");
  require(c.merge_fan_in >= 2 && c.merge_fan_in <= 1024, "--merge-fan-in must be between 2 and 1024");
  require(c.subranges <= 4096, "--subranges must be at most 4096");
}

void validate(const CycloJoinConfig& c) {
  require(c.chunk_bytes >= 64 && c.chunk_bytes <= kGiB, "--chunk-size must be between 64 B and 1 GiB");
}

void validate(const BroadcastJoinConfig& c) {
  require(c.chunk_bytes >= 64 && c.chunk_bytes <= kGiB, "--chunk-size must be between 64 B and 1 GiB");
  require(c.depth >= 1 && c.depth <= 64, "--depth must be between 1 and 64");
  require(c.udp.phase_packets >= 1 && c.udp.phase_packets <= 4096, "--udp-phase must be between 1 and 4096 datagrams");
  require(c.udp.loss >= 0 && c.udp.loss <= 0.9, "--udp-loss must be between 0 and 0.9");
  require(c.udp.duplicates >= 0 && c.udp.duplicates <= 1, "--udp-duplicates must be between 0 and 1");
  require(c.udp.quiet_ms >= 1 && c.udp.quiet_ms <= 10000, "--udp-quiet-ms must be between 1 and 10000");
  if (!c.udp.address.empty()) ipv4_address(c.udp.address, 0);  // refuses what is no IPv4 address
}

}  // namespace hpcdb
