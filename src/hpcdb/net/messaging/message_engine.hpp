#pragma once
// The message layer's machinery behind MessageLayer (message_layer.hpp has
// the contract): the rings and the two-sided path per priority class, the
// handlers, the network threads and their loop, and drain()'s bookkeeping.
//
// One round of the network loop, in this order:
//   1. latency-sensitive sends: a batch per ring with messages waiting, then
//      MPI_Isends;
//   2. latency-sensitive receives: every ring's records up to its snapshot,
//      then probed two-sided messages;
//   3. best-effort sends and receives, a batch (head_batch messages) each:
//      under the strict policy only when no latency-sensitive message waits
//      to be sent (or was received in this round); under the weighted policy
//      always, and steps 1 and 2 are then limited to best_effort_weight
//      batches each;
//   4. completion of pending MPI_Isends.
// Each ring end and each path has its own lock that a thread only tries, so
// threads never wait for each other: a thread skips what another one is
// doing. Threads take all four roles (homogeneous) or some (specialised).
#include <mpi.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/messaging/large_message_path.hpp"
#include "hpcdb/net/messaging/layer_counters.hpp"
#include "hpcdb/net/messaging/message_layer.hpp"
#include "hpcdb/net/messaging/ring_reader.hpp"
#include "hpcdb/net/messaging/ring_window.hpp"
#include "hpcdb/net/messaging/ring_writer.hpp"

namespace hpcdb {

struct NetworkRoles {
  bool ring_send = true;
  bool ring_receive = true;
  bool large_send = true;
  bool large_receive = true;
  // The roles of thread `index` of `threads` in `mode`.
  static NetworkRoles of_thread(ThreadMode mode, unsigned index, unsigned threads);
};

class MessageEngine {
 public:
  MessageEngine(const Cluster& cluster, const MessageLayerConfig& config);
  ~MessageEngine();
  MessageEngine(const MessageEngine&) = delete;
  MessageEngine& operator=(const MessageEngine&) = delete;

  const MessageLayerConfig& config() const { return config_; }
  int rank() const { return rank_; }
  int ranks() const { return ranks_; }

  OutgoingBuffer acquire(std::size_t bytes);
  void send(OutgoingBuffer&& buffer, int target, EndpointId endpoint, const SendOptions& options);
  void register_handler(EndpointId endpoint, MessageHandler handler);
  bool progress();
  bool sending() const { return local_work_pending(); }
  void drain();
  void close();
  bool closed() const { return closed_; }
  void stop_threads();
  // Stops the threads and leaves the window to the ending job: no collective
  // (peers may be gone), for destruction while an exception unwinds.
  void abandon();
  MessageLayerStats stats() const;

 private:
  struct ClassPaths {
    std::vector<std::unique_ptr<RingWriter>> writers;  // by target
    std::vector<std::unique_ptr<RingReader>> readers;  // by source
    std::unique_ptr<LargeSender> large_sender;
    std::unique_ptr<LargeReceiver> large_receiver;
    std::atomic<std::size_t> queued{0};  // messages sent but not yet handed to MPI
    std::atomic<unsigned> rotation{0};   // the ring a round starts with, for fairness between targets
  };

  bool run_round(const NetworkRoles& roles);
  std::size_t send_class(Priority c, const NetworkRoles& roles, std::size_t budget);
  std::size_t receive_class(Priority c, const NetworkRoles& roles, std::size_t most);
  void deliver(const MessageHeader& header, const std::byte* payload, int source, PooledBlock block);
  void complete_sends(const NetworkRoles& roles);
  void network_thread(unsigned index);
  void idle_wait(std::chrono::microseconds step);
  void wake();
  bool local_work_pending() const;
  void check_stalls() const;
  void check_failure() const;
  void record_failure(std::exception_ptr failure);
  bool on_layer_thread() const;
  void wait_for_arrivals(const std::vector<std::uint64_t>& expected, unsigned parity);
  // Waits for a non-blocking collective; without network threads, keeps
  // this rank's messages moving meanwhile.
  void complete_while_moving(MPI_Request& request);
  ClassPaths& paths(Priority c) { return classes_[static_cast<std::size_t>(c)]; }

  const Cluster& cluster_;
  MessageLayerConfig config_;
  int rank_;
  int ranks_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  BufferPool pool_;
  LayerCounters counters_;
  std::optional<RingWindow> window_;  // none when every message is two-sided
  ClassPaths classes_[kPriorityClasses];

  std::shared_mutex handlers_mutex_;  // guards handlers_ and waiting_
  std::unordered_map<EndpointId, std::shared_ptr<MessageHandler>> handlers_;
  std::vector<Message> waiting_;  // arrived before their endpoint had a handler

  // drain()'s bookkeeping: messages are counted by the parity of the drain
  // epoch they were sent in (sends take the mutex shared; drain() takes it
  // alone to end an epoch), so that messages sent while a drain runs never
  // stand in for earlier ones that have not arrived yet.
  std::shared_mutex epoch_mutex_;
  std::uint64_t epoch_ = 0;                                  // drains begun on this rank
  std::vector<std::atomic<std::uint64_t>> sent_to_[2];       // [parity] by target
  std::vector<std::atomic<std::uint64_t>> arrived_from_[2];  // [parity] by source, after the handler returned

  std::vector<std::thread> threads_;
  std::vector<std::thread::id> thread_ids_;
  std::atomic<bool> stop_{false};
  std::mutex sleep_mutex_;
  std::condition_variable sleep_cv_;
  std::atomic<unsigned> sleepers_{0};
  std::atomic<int> caller_rounds_{0};  // progress() in flight on the caller's thread (threads = 0)

  mutable std::mutex failure_mutex_;
  std::exception_ptr failure_;
  std::atomic<bool> failed_{false};
  bool closed_ = false;
};

}  // namespace hpcdb
