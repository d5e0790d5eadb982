#pragma once
// The message layer's options, shared by every command that runs the layer:
// added to a subcommand by add_message_layer_options and turned into a
// MessageLayerConfig by resolve() (sizes take suffixes: 8Ki, 1Mi). The hybrid
// threshold comes from --threshold, else from a calibration file
// (--calibration, written by 'hpcdb calibrate'), else the default.
#include <CLI/CLI.hpp>

#include <string>

#include "hpcdb/net/messaging/message_layer_config.hpp"

namespace hpcdb {

struct MessageLayerOptions {
  std::string threshold;  // empty: from the calibration or the default
  std::string calibration;
  std::string ring_bytes = "1Mi";
  bool coalesce = false;
  unsigned head_batch = 32;
  unsigned waitall_batch = 16;
  double waitall_timeout_us = 50;
  unsigned threads = 1;
  long idle_sleep_us = -1;  // -1: the command's default (0 but for hpcdb ssb --priorities on)
  std::string thread_mode = "homogeneous";
  std::string priority_policy = "strict";
  unsigned best_effort_weight = 8;
  std::string max_message = "64Mi";
  std::string pool_bytes = "1Gi";
  double stall_timeout = 60;
};

void add_message_layer_options(CLI::App& command, MessageLayerOptions& options);
// Throws UsageError for malformed values; the layer validates the rest.
MessageLayerConfig resolve(const MessageLayerOptions& options);
// Where the threshold came from: "--threshold", "calibration FILE" or "default".
std::string threshold_source(const MessageLayerOptions& options);

}  // namespace hpcdb
