#pragma once
// What a user can set about the message layer. The field names follow the
// command-line options that set them (add_message_layer_options in the
// program), so that validate()'s messages name the option to change.
#include <cstddef>
#include <cstdint>
#include <string>

namespace hpcdb {

// Two classes: latency-sensitive messages (point lookups, replies a client
// waits for) go before best-effort ones (scans, bulk data).
enum class Priority : std::uint8_t { latency = 0, best_effort = 1 };
constexpr int kPriorityClasses = 2;
std::string to_string(Priority p);
Priority parse_priority(const std::string& text);

// How the network threads share the work: every thread does every task
// (homogeneous), or each takes fixed roles among ring sending, ring
// receiving, large-message sending and large-message receiving, dealt
// round-robin over the threads (specialised).
enum class ThreadMode { homogeneous, specialised };
std::string to_string(ThreadMode m);
ThreadMode parse_thread_mode(const std::string& text);

// strict: best-effort messages go only when no latency-sensitive one waits
// (it can starve them); weighted: while both wait, at most
// `best_effort_weight` latency-sensitive messages go per best-effort one.
enum class PriorityPolicy { strict, weighted };
std::string to_string(PriorityPolicy p);
PriorityPolicy parse_priority_policy(const std::string& text);

struct MessageLayerConfig {
  // Messages with at most this many payload bytes take the ring, larger ones
  // MPI_Isend (`hpcdb calibrate` measures the cross-over). 0: all two-sided.
  std::size_t threshold = 8192;
  // Capacity of each ring (one per ordered rank pair and priority class).
  std::size_t ring_bytes = std::size_t{1} << 20;
  // Copy small messages into one staging buffer per ring and put them with
  // one MPI_Put per batch, instead of one MPI_Put per message from its
  // pooled buffer (zero-copy).
  bool coalesce = false;
  // Messages written to a ring before its head is published (and flushed).
  unsigned head_batch = 32;
  // Pending MPI_Isend requests, or microseconds since the oldest, after which
  // they are completed.
  unsigned waitall_batch = 16;
  double waitall_timeout_us = 50;
  // Network threads; 0: none, the caller drives progress() (then the layer
  // needs only MPI_THREAD_SERIALIZED, and only one thread may use it).
  unsigned threads = 1;
  ThreadMode thread_mode = ThreadMode::homogeneous;
  // How a network thread without work waits once it has spun a while. 0:
  // it yields its core for 2 ms, then sleeps in 50 us steps. N: it sleeps in
  // steps of N microseconds at once and never yields, since a yield can hand
  // the core to a background (SCHED_IDLE) thread until the next scheduler
  // tick. Either sleep ends early when this rank sends.
  unsigned idle_sleep_us = 0;
  PriorityPolicy priority_policy = PriorityPolicy::strict;
  unsigned best_effort_weight = 8;
  // Largest message, and the pool's limit on the bytes of all its buffers.
  std::size_t max_message = std::size_t{64} << 20;
  std::size_t pool_bytes = std::size_t{1} << 30;
  // Seconds without any progress toward a waiting send or drain() before the
  // layer gives up naming the silent rank.
  double stall_timeout = 60;

  // UsageError naming the option for any value that cannot work with
  // `ranks` ranks (a threshold the ring cannot hold, zero sizes, ...).
  void validate(int ranks) const;
  // Bytes of the rings' window on each rank.
  std::size_t window_bytes(int ranks) const;
};

}  // namespace hpcdb
