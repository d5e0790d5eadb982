#include "hpcdb/net/messaging/message_engine.hpp"

#include <sched.h>
#include <sys/prctl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/net/agreement.hpp"

namespace hpcdb {
namespace {

constexpr Priority kClasses[] = {Priority::latency, Priority::best_effort};

// A network thread that found nothing to do spins this many rounds, then
// yields its CPU on every round, and after kSleepAfterNs without work (and
// nothing of its own in flight) sleeps in steps of kSleep until a send
// wakes it: an idle layer costs no CPU, a busy one no latency. With
// idle_sleep_us set it sleeps in those steps right after spinning.
constexpr unsigned kSpinRounds = 64;
constexpr std::uint64_t kSleepAfterNs = 2'000'000;
constexpr auto kSleep = std::chrono::microseconds(50);
constexpr unsigned kStallCheckRounds = 4096;

std::string ranks_text(const std::vector<int>& ranks) {
  std::string text;
  for (std::size_t i = 0; i < ranks.size() && i < 8; ++i) text += (i > 0 ? ", " : "") + std::to_string(ranks[i]);
  if (ranks.size() > 8) text += ", ...";
  return text;
}

}  // namespace

NetworkRoles NetworkRoles::of_thread(ThreadMode mode, unsigned index, unsigned threads) {
  if (mode == ThreadMode::homogeneous || threads <= 1) return {};
  // Roles 0..3: ring send, ring receive, large send, large receive.
  bool has[4] = {};
  for (unsigned role = 0; role < 4; ++role) {
    has[role] = threads >= 4 ? role == index % 4 : role % threads == index;
  }
  return {has[0], has[1], has[2], has[3]};
}

MessageEngine::MessageEngine(const Cluster& cluster, const MessageLayerConfig& config)
    : cluster_(cluster),
      config_(config),
      rank_(cluster.rank()),
      ranks_(cluster.size()),
      pool_(config.max_message, config.pool_bytes, config.stall_timeout) {
  for (unsigned parity = 0; parity < 2; ++parity) {
    sent_to_[parity] = std::vector<std::atomic<std::uint64_t>>(static_cast<std::size_t>(ranks_));
    arrived_from_[parity] = std::vector<std::atomic<std::uint64_t>>(static_cast<std::size_t>(ranks_));
  }
  run_collectively(cluster.world(), [&] {
    config_.validate(ranks_);
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    if (config_.threads > 0 && provided < MPI_THREAD_MULTIPLE) {
      throw UsageError("the message layer's network threads (--net-threads " + std::to_string(config_.threads) +
                       ") need MPI_THREAD_MULTIPLE, which this MPI job was not started with; use --net-threads 0");
    }
  });
  MPI_Comm_dup(cluster.world(), &comm_);
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  if (config_.threshold > 0) window_.emplace(comm_, ranks_, config_.ring_bytes);
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_ARE_FATAL);
  for (Priority c : kClasses) {
    ClassPaths& p = paths(c);
    if (window_) {
      for (int r = 0; r < ranks_; ++r) {
        p.writers.push_back(std::make_unique<RingWriter>(rank_, r, c, config_.coalesce, config_.ring_bytes));
        p.readers.push_back(std::make_unique<RingReader>(rank_, r, c, config_.ring_bytes));
      }
    }
    p.large_sender = std::make_unique<LargeSender>(comm_, c, config_.waitall_batch, config_.waitall_timeout_us);
    p.large_receiver = std::make_unique<LargeReceiver>(comm_, c, pool_);
  }
  for (unsigned t = 0; t < config_.threads; ++t) threads_.emplace_back([this, t] { network_thread(t); });
  for (const std::thread& t : threads_) thread_ids_.push_back(t.get_id());
  MPI_Barrier(comm_);
}

MessageEngine::~MessageEngine() {
  stop_threads();
  window_.reset();
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void MessageEngine::abandon() {
  stop_threads();
  if (window_) window_->forget();
  comm_ = MPI_COMM_NULL;
}

void MessageEngine::stop_threads() {
  stop_.store(true);
  wake();
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

// ---- the API's side

bool MessageEngine::on_layer_thread() const {
  if (caller_rounds_.load(std::memory_order_relaxed) > 0) return true;
  const auto me = std::this_thread::get_id();
  return std::find(thread_ids_.begin(), thread_ids_.end(), me) != thread_ids_.end();
}

OutgoingBuffer MessageEngine::acquire(std::size_t bytes) {
  check_failure();
  if (on_layer_thread()) return {pool_.acquire(bytes, BufferPool::OverLimit::overdraw), bytes};
  if (config_.threads > 0) return {pool_.acquire(bytes, BufferPool::OverLimit::wait), bytes};
  // Nobody else makes progress: send and receive until a buffer is free.
  Stopwatch waiting;
  for (;;) {
    if (PooledBlock b = pool_.acquire(bytes, BufferPool::OverLimit::give_up)) return {std::move(b), bytes};
    if (progress()) waiting.restart();
    if (waiting.seconds() > config_.stall_timeout) return {pool_.acquire(bytes, BufferPool::OverLimit::wait), bytes};
  }
}

void MessageEngine::send(OutgoingBuffer&& buffer, int target, EndpointId endpoint, const SendOptions& options) {
  check_failure();
  if (target < 0 || target >= ranks_) {
    throw UsageError("the message layer cannot send to rank " + std::to_string(target) + ": the job has ranks 0 to " +
                     std::to_string(ranks_ - 1));
  }
  if (!buffer) throw UsageError("the message layer was given an empty buffer to send (one already sent?)");
  auto* header = reinterpret_cast<MessageHeader*>(buffer.block_.memory());
  *header = MessageHeader{};
  header->payload_bytes = static_cast<std::uint32_t>(buffer.size());
  header->endpoint = endpoint;
  header->source = static_cast<std::uint32_t>(rank_);
  header->stream = options.stream;
  header->sequence = options.sequence;
  header->priority = static_cast<std::uint8_t>(options.priority);
  {
    std::shared_lock epoch(epoch_mutex_);
    header->drain_parity = static_cast<std::uint8_t>(epoch_ & 1);
    sent_to_[epoch_ & 1][static_cast<std::size_t>(target)].fetch_add(1, std::memory_order_relaxed);
  }
  Outgoing message{std::move(buffer.block_), sizeof(MessageHeader) + buffer.size(), target};
  ClassPaths& p = paths(options.priority);
  p.queued.fetch_add(1, std::memory_order_release);
  if (window_ && buffer.size() <= config_.threshold) {
    p.writers[static_cast<std::size_t>(target)]->queue().push(std::move(message));
  } else {
    p.large_sender->queue().push(std::move(message));
  }
  buffer.size_ = 0;
  wake();
}

void MessageEngine::register_handler(EndpointId endpoint, MessageHandler handler) {
  check_failure();
  if (!handler) throw UsageError("the message layer was given an empty handler for endpoint " + std::to_string(endpoint));
  auto shared = std::make_shared<MessageHandler>(std::move(handler));
  std::vector<Message> early;
  {
    std::unique_lock lock(handlers_mutex_);
    handlers_[endpoint] = shared;
    auto first = std::stable_partition(waiting_.begin(), waiting_.end(),
                                       [endpoint](const Message& m) { return m.endpoint() != endpoint; });
    for (auto it = first; it != waiting_.end(); ++it) early.push_back(std::move(*it));
    waiting_.erase(first, waiting_.end());
  }
  for (Message& m : early) (*shared)(m);
}

bool MessageEngine::progress() {
  check_failure();
  if (on_layer_thread()) throw UsageError("the message layer's progress() was called from a handler");
  ++caller_rounds_;
  try {
    const bool did = run_round(NetworkRoles{});
    --caller_rounds_;
    return did;
  } catch (...) {
    --caller_rounds_;
    throw;
  }
}

// ---- the network loop

bool MessageEngine::run_round(const NetworkRoles& roles) {
  const bool weighted = config_.priority_policy == PriorityPolicy::weighted;
  const std::size_t batch = config_.head_batch;
  const std::size_t latency_budget =
      weighted ? static_cast<std::size_t>(config_.best_effort_weight) * batch : std::numeric_limits<std::size_t>::max();
  std::size_t work = send_class(Priority::latency, roles, latency_budget);
  const std::size_t latency_received = receive_class(Priority::latency, roles, latency_budget);
  work += latency_received;
  if (weighted || paths(Priority::latency).queued.load(std::memory_order_acquire) == 0) {
    work += send_class(Priority::best_effort, roles, batch);
  }
  if (weighted || latency_received == 0) work += receive_class(Priority::best_effort, roles, batch);
  complete_sends(roles);
  return work > 0;
}

std::size_t MessageEngine::send_class(Priority c, const NetworkRoles& roles, std::size_t budget) {
  ClassPaths& p = paths(c);
  if (p.queued.load(std::memory_order_acquire) == 0) return 0;
  std::size_t sent = 0;
  if (roles.ring_send && window_) {
    const auto start = p.rotation.fetch_add(1, std::memory_order_relaxed);
    for (int k = 0; k < ranks_ && sent < budget; ++k) {
      RingWriter& w = *p.writers[(start + static_cast<unsigned>(k)) % static_cast<unsigned>(ranks_)];
      sent += w.write_batch(*window_, std::min<std::size_t>(config_.head_batch, budget - sent), counters_);
    }
  }
  if (roles.large_send && sent < budget) {
    sent += p.large_sender->start_sends(std::min<std::size_t>(config_.waitall_batch, budget - sent), counters_);
  }
  p.queued.fetch_sub(sent, std::memory_order_acq_rel);
  return sent;
}

std::size_t MessageEngine::receive_class(Priority c, const NetworkRoles& roles, std::size_t most) {
  ClassPaths& p = paths(c);
  std::size_t received = 0;
  if (roles.ring_receive && window_) {
    window_->sync();
    for (int s = 0; s < ranks_ && received < most; ++s) {
      received += p.readers[static_cast<std::size_t>(s)]->read(
          *window_, most - received, counters_, [&](const MessageHeader& h, const std::byte* payload) {
            counters_.ring_received[static_cast<std::size_t>(c)].add(h.payload_bytes);
            deliver(h, payload, s, PooledBlock());
          });
    }
  }
  if (roles.large_receive) {
    for (std::size_t k = 0; k < config_.waitall_batch && received < most; ++k) {
      std::optional<ReceivedLarge> r = p.large_receiver->receive(counters_);
      if (!r) break;
      const std::byte* payload = r->block.payload();
      deliver(*r->header, payload, r->source, std::move(r->block));
      ++received;
    }
  }
  return received;
}

void MessageEngine::deliver(const MessageHeader& header, const std::byte* payload, int source, PooledBlock block) {
  Message m;
  // The header lives in the message's buffer, which the handler may keep and
  // release on another thread at any time: read all of it before the handler.
  std::atomic<std::uint64_t>& arrivals = arrived_from_[header.drain_parity & 1][static_cast<std::size_t>(source)];
  m.source_ = source;
  m.endpoint_ = header.endpoint;
  m.priority_ = static_cast<Priority>(header.priority);
  m.stream_ = header.stream;
  m.sequence_ = header.sequence;
  m.bytes_ = payload;
  m.size_ = header.payload_bytes;
  const bool borrowed = !block;
  if (borrowed) m.copy_pool_ = &pool_;
  m.block_ = std::move(block);

  std::shared_ptr<MessageHandler> handler;
  {
    std::shared_lock lock(handlers_mutex_);
    auto it = handlers_.find(m.endpoint_);
    if (it != handlers_.end()) handler = it->second;
  }
  if (!handler) {
    std::unique_lock lock(handlers_mutex_);
    auto it = handlers_.find(m.endpoint_);
    if (it == handlers_.end()) {
      waiting_.push_back(std::move(m));  // copies a ring record out
      arrivals.fetch_add(1, std::memory_order_release);
      return;
    }
    handler = it->second;
  }
  (*handler)(m);
  if (borrowed && m.empty()) LayerCounters::bump(counters_.kept_copies);
  arrivals.fetch_add(1, std::memory_order_release);
}

void MessageEngine::complete_sends(const NetworkRoles& roles) {
  if (!roles.large_send) return;
  for (Priority c : kClasses) paths(c).large_sender->complete(!roles.large_receive, counters_);
}

bool MessageEngine::local_work_pending() const {
  for (const ClassPaths& p : classes_) {
    if (p.queued.load(std::memory_order_acquire) > 0 || !p.large_sender->idle()) return true;
  }
  return false;
}

void MessageEngine::network_thread(unsigned index) {
  const NetworkRoles roles = NetworkRoles::of_thread(config_.thread_mode, index, config_.threads);
  unsigned idle = 0;
  std::uint64_t idle_since = 0;
  // Short sleeps must end on time: the default timer slack (50 us) would
  // lengthen a 100 us step by up to half.
  if (config_.idle_sleep_us > 0) (void)prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
  try {
    while (!stop_.load(std::memory_order_acquire)) {
      if (run_round(roles)) {
        idle = 0;
        continue;
      }
      if (idle++ == 0) idle_since = monotonic_ns();
      if (idle % kStallCheckRounds == 0) check_stalls();
      if (idle < kSpinRounds) continue;
      if (config_.idle_sleep_us > 0) {
        idle_wait(std::chrono::microseconds(config_.idle_sleep_us));
        continue;
      }
      if (monotonic_ns() - idle_since < kSleepAfterNs || local_work_pending()) {
        sched_yield();
        continue;
      }
      idle_wait(kSleep);
    }
  } catch (...) {
    record_failure(std::current_exception());
  }
}

void MessageEngine::idle_wait(std::chrono::microseconds step) {
  std::unique_lock lock(sleep_mutex_);
  ++sleepers_;
  sleep_cv_.wait_for(lock, step);
  --sleepers_;
}

void MessageEngine::wake() {
  if (sleepers_.load(std::memory_order_acquire) == 0) return;
  std::lock_guard lock(sleep_mutex_);
  sleep_cv_.notify_all();
}

void MessageEngine::check_stalls() const {
  const std::uint64_t now = monotonic_ns();
  const auto limit = static_cast<std::uint64_t>(config_.stall_timeout * 1e9);
  for (const ClassPaths& p : classes_) {
    for (const auto& w : p.writers) {
      const std::uint64_t since = w->full_since();
      if (since != 0 && now - since > limit) {
        throw Error("rank " + std::to_string(w->target()) + " has taken no message from rank " + std::to_string(rank_) +
                    "'s ring for " + std::to_string(static_cast<int>(config_.stall_timeout)) +
                    " s (--stall-timeout); is it still running?");
      }
    }
  }
}

// ---- failures

void MessageEngine::record_failure(std::exception_ptr failure) {
  std::lock_guard lock(failure_mutex_);
  if (!failure_) failure_ = failure;
  failed_.store(true, std::memory_order_release);
}

void MessageEngine::check_failure() const {
  if (!failed_.load(std::memory_order_acquire)) return;
  std::lock_guard lock(failure_mutex_);
  try {
    std::rethrow_exception(failure_);
  } catch (const UsageError& e) {
    throw UsageError(e.what());
  } catch (const std::exception& e) {
    throw Error(std::string("the message layer's network thread failed: ") + e.what());
  }
}

// ---- drain and close

void MessageEngine::wait_for_arrivals(const std::vector<std::uint64_t>& expected, unsigned parity) {
  Stopwatch quiet;
  std::uint64_t last_total = 0;
  for (;;) {
    check_failure();
    std::vector<int> missing;
    std::uint64_t total = 0;
    for (int s = 0; s < ranks_; ++s) {
      const std::uint64_t arrived = arrived_from_[parity][static_cast<std::size_t>(s)].load(std::memory_order_acquire);
      total += arrived;
      if (arrived < expected[static_cast<std::size_t>(s)]) missing.push_back(s);
    }
    if (missing.empty()) return;
    if (total != last_total) {
      last_total = total;
      quiet.restart();
    }
    if (quiet.seconds() > config_.stall_timeout) {
      throw Error("the message layer waited " + std::to_string(static_cast<int>(config_.stall_timeout)) +
                  " s (--stall-timeout) for messages from rank(s) " + (missing.empty() ? std::string("-") : ranks_text(missing)) +
                  " that never arrived" + (local_work_pending() ? ", with messages of its own still unsent" : ""));
    }
    if (config_.threads == 0) {
      if (progress()) quiet.restart();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }
}

// Every message carries the parity of its sender's drain epoch. drain()
// ends this rank's epoch: from then on its messages count toward the next
// drain, and the counts of the ending epoch's parity (cumulative since the
// start) are final. A peer waits for exactly those: a message sent during
// the drain, say by a handler, has the other parity and cannot make up for
// one of this epoch still on its way. No rank begins the next epoch of the
// same parity before every rank has finished waiting (drain ends with a
// collective).
void MessageEngine::drain() {
  check_failure();
  std::vector<std::uint64_t> sent(static_cast<std::size_t>(ranks_)), expected(static_cast<std::size_t>(ranks_));
  unsigned parity = 0;
  {
    std::unique_lock epoch(epoch_mutex_);
    parity = static_cast<unsigned>(epoch_ & 1);
    ++epoch_;
    for (int r = 0; r < ranks_; ++r) sent[static_cast<std::size_t>(r)] = sent_to_[parity][static_cast<std::size_t>(r)].load();
  }
  MPI_Request exchange;
  MPI_Ialltoall(sent.data(), 1, MPI_UINT64_T, expected.data(), 1, MPI_UINT64_T, comm_, &exchange);
  complete_while_moving(exchange);
  std::exception_ptr failure;
  try {
    wait_for_arrivals(expected, parity);
    std::shared_lock lock(handlers_mutex_);
    if (!waiting_.empty()) {
      throw Error("the message layer holds " + std::to_string(waiting_.size()) + " message(s) for endpoint " +
                  std::to_string(waiting_.front().endpoint()) + " (from rank " + std::to_string(waiting_.front().source()) +
                  "), which has no handler on rank " + std::to_string(rank_));
    }
  } catch (...) {
    failure = std::current_exception();
  }
  // This rank has what it waited for; its peers may still wait for its own
  // messages (or for room in its rings), which only it moves when it has no
  // network threads.
  MPI_Request all_arrived;
  MPI_Ibarrier(comm_, &all_arrived);
  complete_while_moving(all_arrived);
  agree_on_failure(comm_, failure);
}

void MessageEngine::complete_while_moving(MPI_Request& request) {
  if (config_.threads > 0) {
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    return;
  }
  for (int done = 0; !done;) {
    progress();
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

void MessageEngine::close() {
  if (closed_) return;
  drain();
  stop_threads();
  window_.reset();  // collective
  MPI_Comm_free(&comm_);
  closed_ = true;
}

MessageLayerStats MessageEngine::stats() const {
  MessageLayerStats s = counters_.snapshot();
  const BufferPoolStats p = pool_.stats();
  s.buffers_acquired = p.acquired;
  s.buffers_reused = p.reused;
  s.pool_bytes_held = p.bytes_held;
  s.pool_peak_bytes = p.peak_bytes_held;
  s.window_bytes = window_ ? window_->bytes() : 0;
  return s;
}

}  // namespace hpcdb
