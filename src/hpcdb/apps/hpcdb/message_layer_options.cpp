#include "hpcdb/apps/hpcdb/message_layer_options.hpp"

#include "hpcdb/model/calibration.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {

void add_message_layer_options(CLI::App& command, MessageLayerOptions& o) {
  const std::string group = "Message layer";
  command.add_option("--threshold", o.threshold,
                     "Largest payload (bytes) that goes through the one-sided ring; larger messages go two-sided "
                     "(MPI_Isend / MPI_Improbe + MPI_Mrecv). 0: all two-sided. Default: from --calibration, else 8Ki")
      ->group(group);
  command.add_option("--calibration", o.calibration,
                     "Calibration file ('hpcdb calibrate'): the layer takes its measured hybrid threshold (unless "
                     "--threshold); hpcdb shuffle also its rates, and prints its model next to each design")
      ->group(group);
  command.add_option("--ring-bytes", o.ring_bytes, "Capacity of each ring (one per rank pair and priority class)")
      ->capture_default_str()
      ->group(group);
  command.add_flag("--coalesce", o.coalesce,
                   "Copy small messages into one staging buffer per ring and put a batch at once (default: zero-copy, "
                   "one MPI_Put per message from its pooled buffer)")
      ->group(group);
  command.add_option("--head-batch", o.head_batch, "Ring records written before the head is published")
      ->capture_default_str()
      ->group(group);
  command.add_option("--waitall-batch", o.waitall_batch, "Pending MPI_Isends completed together")
      ->capture_default_str()
      ->group(group);
  command.add_option("--waitall-timeout", o.waitall_timeout_us,
                     "Microseconds after which pending MPI_Isends are completed, however few")
      ->capture_default_str()
      ->group(group);
  command.add_option("--net-threads", o.threads,
                     "Network threads per rank (0: the command's own thread drives the layer)")
      ->capture_default_str()
      ->group(group);
  command.add_option("--net-idle-sleep", o.idle_sleep_us,
                     "Microseconds a network thread without work sleeps per step. 0: it yields its core for 2 ms "
                     "before sleeping in 50 us steps; N: it sleeps in N us steps at once, never yielding (a yield can "
                     "hand the core to a background thread until the next scheduler tick). Default 0; hpcdb ssb "
                     "--priorities on: 100")
      ->group(group);
  command.add_option("--thread-mode", o.thread_mode,
                     "homogeneous (every network thread does everything) or specialised (fixed roles: ring send, ring "
                     "receive, large send, large receive, dealt over the threads)")
      ->capture_default_str()
      ->group(group);
  command.add_option("--priority-policy", o.priority_policy,
                     "strict (best-effort messages only when no latency-sensitive one waits) or weighted (a best-effort "
                     "batch after at most --best-effort-weight latency-sensitive batches)")
      ->capture_default_str()
      ->group(group);
  command.add_option("--best-effort-weight", o.best_effort_weight, "See --priority-policy weighted")
      ->capture_default_str()
      ->group(group);
  command.add_option("--max-message", o.max_message, "Largest message")->capture_default_str()->group(group);
  command.add_option("--pool-bytes", o.pool_bytes, "Limit on the bytes of all pooled buffers")
      ->capture_default_str()
      ->group(group);
  command.add_option("--stall-timeout", o.stall_timeout,
                     "Seconds without progress toward a waiting message before the job ends naming the silent rank")
      ->capture_default_str()
      ->group(group);
}

MessageLayerConfig resolve(const MessageLayerOptions& o) {
  MessageLayerConfig c;
  if (!o.threshold.empty()) {
    c.threshold = parse_bytes(o.threshold, "--threshold");
  } else if (!o.calibration.empty()) {
    const Calibration cal = read_calibration(o.calibration);
    if (cal.message_threshold <= 0) {
      throw UsageError("calibration file '" + o.calibration +
                       "' has no message-layer threshold (calibrate with 2 or more ranks)");
    }
    c.threshold = static_cast<std::size_t>(cal.message_threshold);
  }
  c.ring_bytes = parse_bytes(o.ring_bytes, "--ring-bytes");
  c.coalesce = o.coalesce;
  c.head_batch = o.head_batch;
  c.waitall_batch = o.waitall_batch;
  c.waitall_timeout_us = o.waitall_timeout_us;
  c.threads = o.threads;
  if (o.idle_sleep_us < -1 || o.idle_sleep_us > 1'000'000) {
    throw UsageError("--net-idle-sleep must be from 0 to 1000000 microseconds, not " + std::to_string(o.idle_sleep_us));
  }
  c.idle_sleep_us = o.idle_sleep_us < 0 ? 0 : static_cast<unsigned>(o.idle_sleep_us);
  c.thread_mode = parse_thread_mode(o.thread_mode);
  c.priority_policy = parse_priority_policy(o.priority_policy);
  c.best_effort_weight = o.best_effort_weight;
  c.max_message = parse_bytes(o.max_message, "--max-message");
  c.pool_bytes = parse_bytes(o.pool_bytes, "--pool-bytes");
  c.stall_timeout = o.stall_timeout;
  return c;
}

std::string threshold_source(const MessageLayerOptions& o) {
  if (!o.threshold.empty()) return "--threshold";
  if (!o.calibration.empty()) return "calibration " + o.calibration;
  return "default";
}

}  // namespace hpcdb
