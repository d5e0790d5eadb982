#pragma once
// OSU-style measurements through the message layer, rank 0 -> rank 1 (the
// broadcast: rank 0 -> ranks 1..receivers). Every function is collective
// over the layer's ranks; the figures are valid on rank 0. Senders take
// every buffer from the layer's pool, as an operator does (and, like OSU's
// benchmarks, do not fill it); acknowledgements and pongs are sent by the
// receiving handler, so no application thread wakes up on the way.
#include <cstddef>
#include <vector>

#include "hpcdb/net/bench/network_measures.hpp"
#include "hpcdb/net/messaging/message_layer.hpp"

namespace hpcdb {

Throughput layer_bandwidth(MessageLayer& layer, const WindowPlan& plan, Priority priority = Priority::best_effort);

PingPong layer_ping_pong(MessageLayer& layer, std::size_t bytes, unsigned iterations, unsigned skip);

// Two sender threads on rank 0, `small` and `large` bytes, windows of
// `window` each, for `seconds` together and then each alone.
MixedStreams layer_mixed_streams(MessageLayer& layer, std::size_t small, std::size_t large, unsigned window,
                                 double seconds);

// Rank 0 sends every message to ranks 1..receivers (one buffer each).
Throughput layer_one_to_many(MessageLayer& layer, int receivers, const WindowPlan& plan);

// Round trips of `ping_bytes` messages of class `ping_class` for `seconds`,
// while a thread on rank 0 floods rank 1 with best-effort messages of
// `flood_bytes` (no flood when 0), windows of `window`.
PriorityRun layer_priority_under_load(MessageLayer& layer, std::size_t ping_bytes, Priority ping_class,
                                      std::size_t flood_bytes, unsigned window, double seconds);

}  // namespace hpcdb
