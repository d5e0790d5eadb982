#pragma once
// `hpcdb shuffle`: every rank generates rows, and one or all shuffle designs
// move them to their destination ranks, repeatedly and interleaved; prints
// rows/s, bytes and messages per second per rank, registered memory and
// endpoints per design (text and JSON), and with --verify checks that every
// row arrived exactly once at its destination.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "hpcdb/api/shuffle.hpp"
#include "hpcdb/apps/hpcdb/message_layer_options.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// The message layer's options as the shuffle starts them: no network threads,
// the workers drive the layer.
inline MessageLayerOptions layer_driven_by_workers() {
  MessageLayerOptions o;
  o.threads = 0;
  return o;
}

struct ShuffleOptions {
  std::string tuples = "16M";
  std::uint32_t width = 16;
  std::string distribution = "uniform";
  double theta = 1.0;
  std::string keys = "0";
  std::string transport = "all";
  std::string buffer_size = "256KiB";
  unsigned buffers = 4;
  unsigned threads = 1;
  unsigned repeat = 3;
  std::uint64_t seed = 1;
  double progress_timeout = 5;  // seconds a rank may be silent before every rank ends
  std::string direct_writes = "on";
  std::string row_writes = "auto";
  bool verify = false;
  std::string json;
  // message-layer: the layer's options; the workers drive it unless
  // --net-threads asks for threads of its own.
  MessageLayerOptions layer = layer_driven_by_workers();
};

void add_shuffle_options(CLI::App& shuffle, ShuffleOptions& options);
// The options turned into the library's request (api/shuffle.hpp); throws UsageError.
ShuffleRequest to_request(const ShuffleOptions& options);
int run_shuffle_command(const Cluster& cluster, const ShuffleOptions& options);

}  // namespace hpcdb
