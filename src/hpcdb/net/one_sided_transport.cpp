#include "hpcdb/net/one_sided_transport.hpp"

#include <sched.h>

#include <fmt/format.h>

#include <atomic>

#include "hpcdb/core/cpu_info.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/stopwatch.hpp"

namespace hpcdb {
namespace {

constexpr int kSenderBits = 20;  // queue entries carry the sender in their low bits
constexpr int kProgressTag = 0x7e57;

std::uint64_t entry_for(std::uint64_t position, int sender) {
  return ((position + 1) << kSenderBits) | static_cast<std::uint64_t>(sender);
}

std::atomic_ref<std::uint64_t> atomic_word(std::uint64_t* w) { return std::atomic_ref<std::uint64_t>(*w); }

MPI_Aint round_up(MPI_Aint n) { return (n + 63) / 64 * 64; }

}  // namespace

MPI_Aint OneSidedTransport::Layout::node_frame(std::uint64_t position) const {
  const MPI_Aint start = round_up(consumed(ranks));
  return start + static_cast<MPI_Aint>(position % queue_length()) * static_cast<MPI_Aint>(sizeof(MessageFrame));
}

MPI_Aint OneSidedTransport::Layout::rma_entry(std::uint64_t position) const {
  const MPI_Aint start = node_frame(0) + static_cast<MPI_Aint>(queue_length() * sizeof(MessageFrame));
  return start + static_cast<MPI_Aint>(position % queue_length()) * 8;
}

MPI_Aint OneSidedTransport::Layout::slot(int sender, std::uint64_t seq) const {
  const MPI_Aint start = round_up(rma_entry(0) + static_cast<MPI_Aint>(queue_length()) * 8);
  return start + (static_cast<MPI_Aint>(sender) * kSlotsPerSender + static_cast<MPI_Aint>(seq % kSlotsPerSender)) *
                     static_cast<MPI_Aint>(sizeof(MessageFrame));
}

OneSidedTransport::OneSidedTransport(const Cluster& cluster, bool rma_only)
    : cluster_(cluster),
      rma_only_(rma_only),
      any_rma_peer_(rma_only || cluster.node_count() > 1),
      oversubscribed_(static_cast<unsigned>(cluster.node_size()) > detect_cpu().cores),
      layout_{cluster.size()},
      arena_(cluster, static_cast<std::size_t>(layout_.bytes())) {
  if (cluster.size() >= (1 << kSenderBits)) throw Error("the one-sided transport supports fewer than 2^20 ranks");
  sent_.assign(static_cast<std::size_t>(cluster.size()), 0);
  known_consumed_.assign(static_cast<std::size_t>(cluster.size()), 0);
  consumed_.assign(static_cast<std::size_t>(cluster.size()), 0);
  rma_received_.assign(static_cast<std::size_t>(cluster.size()), 0);
  mine_ = arena_.segment(cluster.node_rank());
  std::memset(mine_, 0, static_cast<std::size_t>(layout_.bytes()));
  window_.emplace(mine_, static_cast<std::size_t>(layout_.bytes()), cluster.world());
  int* model = nullptr;
  int found = 0;
  MPI_Win_get_attr(window_->handle(), MPI_WIN_MODEL, &model, &found);
  if (any_rma_peer_ && (!found || *model != MPI_WIN_UNIFIED)) {
    throw Error("the one-sided transport needs MPI's unified memory model (MPI_WIN_UNIFIED); use --transport two-sided");
  }
  MPI_Barrier(cluster.world());  // every mailbox is zeroed before anyone writes
}

OneSidedTransport::~OneSidedTransport() { MPI_Barrier(cluster_.world()); }

void OneSidedTransport::make_progress() {
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, kProgressTag, cluster_.world(), &flag, MPI_STATUS_IGNORE);
}

void OneSidedTransport::note_idle() {
  ++idle_polls_;
  // Software-emulated RMA (e.g. over TCP) progresses only inside MPI calls.
  if (any_rma_peer_ && (idle_polls_ & 15) == 0) make_progress();
  // A spinning poller would keep the peer it waits for off a shared CPU.
  if (oversubscribed_ && (idle_polls_ & 63) == 0) sched_yield();
}

void OneSidedTransport::refresh_consumed(int target) {
  const auto t = static_cast<std::size_t>(target);
  const MPI_Aint at = layout_.consumed(cluster_.rank());
  if (by_shared_memory(target)) {
    known_consumed_[t] = atomic_word(word(shared_base(target), at)).load(std::memory_order_acquire);
  } else {
    std::uint64_t consumed = 0;
    MPI_Get(&consumed, 1, MPI_UINT64_T, target, at, 1, MPI_UINT64_T, window_->handle());
    MPI_Win_flush(target, window_->handle());
    known_consumed_[t] = consumed;
  }
}

bool OneSidedTransport::can_send_without_waiting(int target) {
  const auto t = static_cast<std::size_t>(target);
  if (sent_[t] - known_consumed_[t] < kSlotsPerSender) return true;
  refresh_consumed(target);
  return sent_[t] - known_consumed_[t] < kSlotsPerSender;
}

void OneSidedTransport::wait_for_room(int target) {
  const auto t = static_cast<std::size_t>(target);
  std::uint64_t since_ns = 0;
  for (unsigned spins = 0; sent_[t] - known_consumed_[t] >= kSlotsPerSender; ++spins) {
    refresh_consumed(target);
    if (sent_[t] - known_consumed_[t] < kSlotsPerSender) break;
    // Keep receiving meanwhile, so that two ranks filling each other's rings cannot deadlock.
    if (auto e = take_any()) held_.push_back(*e);
    if (send_wait_limit_ns_ == 0 || (spins & 63) != 0) continue;
    const std::uint64_t now = monotonic_ns();
    if (since_ns == 0) since_ns = now;
    if (now - since_ns > send_wait_limit_ns_) {
      throw Error(fmt::format("rank {} has taken none of the {} messages waiting in its mailbox from rank {} for {:g} "
                              "s: it has probably stopped or hangs",
                              target, kSlotsPerSender, cluster_.rank(),
                              static_cast<double>(send_wait_limit_ns_) * 1e-9));
    }
  }
}

void OneSidedTransport::send(int target, const void* bytes, std::size_t size) {
  MessageFrame frame = MessageFrame::carrying(bytes, size);
  wait_for_room(target);
  const std::uint64_t seq = sent_[static_cast<std::size_t>(target)]++;
  if (by_shared_memory(target)) {
    send_by_shared_memory(target, frame);
  } else {
    send_by_rma(target, frame, seq);
  }
}

void OneSidedTransport::send_by_shared_memory(int target, MessageFrame& frame) {
  std::byte* base = shared_base(target);
  const std::uint64_t position = atomic_word(word(base, layout_.tail(node_path))).fetch_add(1, std::memory_order_relaxed);
  auto* slot = reinterpret_cast<MessageFrame*>(base + layout_.node_frame(position));
  // Everything but the marker, then the marker with release order: the receiver
  // that sees the marker sees the whole frame.
  std::memcpy(reinterpret_cast<std::byte*>(slot) + sizeof frame.marker,
              reinterpret_cast<const std::byte*>(&frame) + sizeof frame.marker, sizeof frame - sizeof frame.marker);
  atomic_word(&slot->marker).store(entry_for(position, cluster_.rank()), std::memory_order_release);
}

void OneSidedTransport::send_by_rma(int target, const MessageFrame& frame, std::uint64_t seq) {
  const MPI_Win win = window_->handle();
  MPI_Put(&frame, sizeof frame, MPI_BYTE, target, layout_.slot(cluster_.rank(), seq), sizeof frame, MPI_BYTE, win);
  MPI_Win_flush(target, win);  // the frame lands before its notification
  const std::uint64_t one = 1;
  std::uint64_t position = 0;
  MPI_Fetch_and_op(&one, &position, MPI_UINT64_T, target, layout_.tail(rma_path), MPI_SUM, win);
  MPI_Win_flush(target, win);
  const std::uint64_t entry = entry_for(position, cluster_.rank());
  MPI_Accumulate(&entry, 1, MPI_UINT64_T, target, layout_.rma_entry(position), 1, MPI_UINT64_T, MPI_REPLACE,
                 win);
  MPI_Win_flush(target, win);
}

Envelope OneSidedTransport::consume(int sender, const MessageFrame& frame) {
  Envelope e = frame.open(sender);
  std::uint64_t& consumed = consumed_[static_cast<std::size_t>(sender)];
  ++consumed;
  atomic_word(word(mine_, layout_.consumed(sender))).store(consumed, std::memory_order_release);
  return e;
}

std::optional<Envelope> OneSidedTransport::take_from_node_queue() {
  std::uint64_t& head = head_[node_path];
  auto* frame = reinterpret_cast<MessageFrame*>(mine_ + layout_.node_frame(head));
  const std::uint64_t marker = atomic_word(&frame->marker).load(std::memory_order_acquire);
  if ((marker >> kSenderBits) != head + 1) return std::nullopt;
  ++head;
  return consume(static_cast<int>(marker & ((1u << kSenderBits) - 1)), *frame);
}

std::optional<Envelope> OneSidedTransport::take_from_rma_queue() {
  MPI_Win_sync(window_->handle());
  std::uint64_t& head = head_[rma_path];
  const std::uint64_t entry = atomic_word(word(mine_, layout_.rma_entry(head))).load(std::memory_order_acquire);
  if ((entry >> kSenderBits) != head + 1) return std::nullopt;
  ++head;
  const int sender = static_cast<int>(entry & ((1u << kSenderBits) - 1));
  // The sender's ring slot: its messages on this path arrive in its sending order.
  const std::uint64_t seq = rma_received_[static_cast<std::size_t>(sender)]++;
  return consume(sender, *reinterpret_cast<const MessageFrame*>(mine_ + layout_.slot(sender, seq)));
}

std::optional<Envelope> OneSidedTransport::take_any() {
  if (!rma_only_) {
    if (auto e = take_from_node_queue()) return e;
  }
  if (any_rma_peer_) {
    if (auto e = take_from_rma_queue()) return e;
  }
  note_idle();
  return std::nullopt;
}

std::optional<Envelope> OneSidedTransport::poll() {
  if (!held_.empty()) {
    Envelope e = held_.front();
    held_.pop_front();
    return e;
  }
  return take_any();
}

void OneSidedTransport::reset_votes(std::uint32_t slot) {
  atomic_word(word(mine_, layout_.vote(node_path, slot))).store(0, std::memory_order_release);
  if (!any_rma_peer_) return;
  const std::uint64_t zero = 0;
  MPI_Accumulate(&zero, 1, MPI_UINT64_T, cluster_.rank(), layout_.vote(rma_path, slot), 1, MPI_UINT64_T, MPI_REPLACE,
                 window_->handle());
  MPI_Win_flush(cluster_.rank(), window_->handle());
}

void OneSidedTransport::cast_vote(int coordinator, std::uint32_t slot, bool yes) {
  const std::uint64_t addend = yes ? kYesVote : kNoVote;
  if (by_shared_memory(coordinator)) {
    atomic_word(word(shared_base(coordinator), layout_.vote(node_path, slot)))
        .fetch_add(addend, std::memory_order_acq_rel);
    return;
  }
  std::uint64_t before = 0;
  MPI_Fetch_and_op(&addend, &before, MPI_UINT64_T, coordinator, layout_.vote(rma_path, slot), MPI_SUM,
                   window_->handle());
  MPI_Win_flush(coordinator, window_->handle());
}

VoteTally OneSidedTransport::votes(std::uint32_t slot) {
  std::uint64_t tally = atomic_word(word(mine_, layout_.vote(node_path, slot))).load(std::memory_order_acquire);
  if (any_rma_peer_) {
    MPI_Win_sync(window_->handle());
    tally += atomic_word(word(mine_, layout_.vote(rma_path, slot))).load(std::memory_order_acquire);
  }
  note_idle();
  return VoteTally::of(tally);
}

}  // namespace hpcdb
