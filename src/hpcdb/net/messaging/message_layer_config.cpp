#include "hpcdb/net/messaging/message_layer_config.hpp"

#include <cmath>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/named_values.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/net/messaging/message_header.hpp"
#include "hpcdb/net/messaging/pooled_buffer.hpp"
#include "hpcdb/net/messaging/ring_window.hpp"

namespace hpcdb {
namespace {

constexpr NamedValues<Priority, 2> kPriorityNames{{{Priority::latency, "latency"}, {Priority::best_effort, "best-effort"}}};
constexpr NamedValues<ThreadMode, 2> kThreadModeNames{
    {{ThreadMode::homogeneous, "homogeneous"}, {ThreadMode::specialised, "specialised"}}};
constexpr NamedValues<PriorityPolicy, 2> kPolicyNames{{{PriorityPolicy::strict, "strict"}, {PriorityPolicy::weighted, "weighted"}}};

std::string bytes_text(std::size_t bytes) { return format_bytes(static_cast<double>(bytes)); }

}  // namespace

std::string to_string(Priority p) { return name_of(p, kPriorityNames); }
Priority parse_priority(const std::string& text) { return value_named(text, kPriorityNames, "priority"); }
std::string to_string(ThreadMode m) { return name_of(m, kThreadModeNames); }
ThreadMode parse_thread_mode(const std::string& text) { return value_named(text, kThreadModeNames, "--thread-mode"); }
std::string to_string(PriorityPolicy p) { return name_of(p, kPolicyNames); }
PriorityPolicy parse_priority_policy(const std::string& text) { return value_named(text, kPolicyNames, "--priority-policy"); }

std::size_t MessageLayerConfig::window_bytes(int ranks) const {
  return threshold == 0 ? 0 : RingWindow::bytes_for(ranks, ring_bytes);
}

void MessageLayerConfig::validate(int ranks) const {
  constexpr std::size_t kLargestMessage = (std::size_t{1} << 31) - 4096;  // MPI counts are ints
  if (max_message < 1 || max_message > kLargestMessage) {
    throw UsageError("--max-message must be between 1 byte and " + bytes_text(kLargestMessage) + ", not " +
                     bytes_text(max_message));
  }
  if (threshold > 0) {
    if (ring_bytes < 4096 || ring_bytes % 64 != 0 || ring_bytes > (std::size_t{1} << 30)) {
      throw UsageError("--ring-bytes must be a multiple of 64 between 4 KiB and 1 GiB, not " + std::to_string(ring_bytes));
    }
    if (ring_record_bytes(threshold) > ring_bytes) {
      throw UsageError("--threshold " + std::to_string(threshold) + " does not fit a ring of --ring-bytes " +
                       std::to_string(ring_bytes) + ": a ring must hold a message of the threshold size with its " +
                       std::to_string(sizeof(MessageHeader)) + "-byte header; lower --threshold to at most " +
                       std::to_string(ring_bytes - sizeof(MessageHeader)) + " or raise --ring-bytes");
    }
    if (threshold > max_message) {
      throw UsageError("--threshold " + std::to_string(threshold) + " exceeds --max-message " + std::to_string(max_message));
    }
    const double window = static_cast<double>(window_bytes(ranks));
    if (window > 0.5 * static_cast<double>(available_memory_bytes())) {
      throw UsageError("the message layer's rings need " + format_bytes(window) + " per rank (" + std::to_string(ranks) +
                       " ranks x 2 priority classes x --ring-bytes " + bytes_text(ring_bytes) +
                       "), more than half the memory available: lower --ring-bytes");
    }
  }
  if (head_batch < 1) throw UsageError("--head-batch must be at least 1");
  if (waitall_batch < 1) throw UsageError("--waitall-batch must be at least 1");
  if (!std::isfinite(waitall_timeout_us) || waitall_timeout_us < 0 || waitall_timeout_us > 1e7) {
    throw UsageError("--waitall-timeout must be between 0 and 10^7 microseconds");
  }
  if (threads > 64) throw UsageError("--net-threads must be at most 64, not " + std::to_string(threads));
  if (idle_sleep_us > 1'000'000) {
    throw UsageError("--net-idle-sleep must be from 0 to 1000000 microseconds, not " + std::to_string(idle_sleep_us));
  }
  if (best_effort_weight < 1) throw UsageError("--best-effort-weight must be at least 1");
  const std::size_t largest_buffer = BufferPool::class_bytes(BufferPool::class_of(max_message));
  if (pool_bytes < largest_buffer) {
    throw UsageError("--pool-bytes " + bytes_text(pool_bytes) + " cannot hold one buffer for a message of --max-message " +
                     bytes_text(max_message) + " (" + bytes_text(largest_buffer) + " with header and rounding)");
  }
  if (!std::isfinite(stall_timeout) || stall_timeout <= 0 || stall_timeout > 1e6) {
    throw UsageError("--stall-timeout must be a positive number of seconds (at most 10^6)");
  }
}

}  // namespace hpcdb
