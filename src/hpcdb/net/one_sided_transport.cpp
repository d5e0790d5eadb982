#include "hpcdb/net/one_sided_transport.hpp"

#include <atomic>

namespace hpcdb {
namespace {

constexpr int kSenderBits = 20;  // queue entries carry the sender in their low bits
constexpr int kProgressTag = 0x7e57;

std::uint64_t entry_for(std::uint64_t position, int sender) {
  return ((position + 1) << kSenderBits) | static_cast<std::uint64_t>(sender);
}

}  // namespace

OneSidedTransport::OneSidedTransport(MPI_Comm comm) {
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &ranks_);
  if (ranks_ >= (1 << kSenderBits)) throw Error("the one-sided transport supports fewer than 2^20 ranks");
  sent_.assign(static_cast<std::size_t>(ranks_), 0);
  known_consumed_.assign(static_cast<std::size_t>(ranks_), 0);
  consumed_.assign(static_cast<std::size_t>(ranks_), 0);

  const MPI_Aint bytes = slot_offset(ranks_, 0);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "same_disp_unit", "true");
  void* base = nullptr;
  const int rc = MPI_Win_allocate(bytes, 1, info, comm_, &base, &win_);
  MPI_Info_free(&info);
  if (rc != MPI_SUCCESS) throw Error("could not allocate the mailbox window");
  base_ = static_cast<std::byte*>(base);
  std::memset(base_, 0, static_cast<std::size_t>(bytes));

  int* model = nullptr;
  int found = 0;
  MPI_Win_get_attr(win_, MPI_WIN_MODEL, &model, &found);
  if (!found || *model != MPI_WIN_UNIFIED) {
    throw Error("the one-sided transport needs MPI's unified memory model (MPI_WIN_UNIFIED); use --transport two-sided");
  }
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
  MPI_Barrier(comm_);  // every mailbox is zeroed before anyone writes
}

OneSidedTransport::~OneSidedTransport() {
  if (win_ != MPI_WIN_NULL) {
    MPI_Barrier(comm_);
    MPI_Win_unlock_all(win_);
    MPI_Win_free(&win_);
  }
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

MPI_Aint OneSidedTransport::consumed_offset() const { return kVotesOffset + kVoteSlots * 8; }

MPI_Aint OneSidedTransport::queue_offset() const {
  const MPI_Aint end = consumed_offset() + static_cast<MPI_Aint>(ranks_) * 8;
  return (end + 63) / 64 * 64;
}

MPI_Aint OneSidedTransport::slot_offset(int sender, std::uint64_t seq) const {
  const MPI_Aint slots = (queue_offset() + static_cast<MPI_Aint>(queue_length()) * 8 + 63) / 64 * 64;
  return slots + (static_cast<MPI_Aint>(sender) * kSlotsPerSender + static_cast<MPI_Aint>(seq % kSlotsPerSender)) *
                     static_cast<MPI_Aint>(sizeof(MessageFrame));
}

std::uint64_t* OneSidedTransport::word_at(MPI_Aint offset) const {
  return reinterpret_cast<std::uint64_t*>(base_ + offset);
}

void OneSidedTransport::make_progress() {
  // Transports that emulate RMA in software (e.g. over TCP) progress only
  // inside MPI calls; an idle receiver must enter the library now and then.
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, kProgressTag, comm_, &flag, MPI_STATUS_IGNORE);
}

void OneSidedTransport::wait_for_room(int target) {
  const auto t = static_cast<std::size_t>(target);
  while (sent_[t] - known_consumed_[t] >= kSlotsPerSender) {
    std::uint64_t consumed = 0;
    MPI_Get(&consumed, 1, MPI_UINT64_T, target, consumed_offset() + static_cast<MPI_Aint>(rank_) * 8, 1, MPI_UINT64_T,
            win_);
    MPI_Win_flush(target, win_);
    known_consumed_[t] = consumed;
    if (sent_[t] - consumed < kSlotsPerSender) break;
    // Keep receiving meanwhile, so that two ranks filling each other's rings cannot deadlock.
    if (auto e = take_next()) held_.push_back(*e);
  }
}

void OneSidedTransport::send(int target, const void* bytes, std::size_t size) {
  const MessageFrame frame = MessageFrame::carrying(bytes, size);
  wait_for_room(target);
  const std::uint64_t seq = sent_[static_cast<std::size_t>(target)]++;
  MPI_Put(&frame, sizeof frame, MPI_BYTE, target, slot_offset(rank_, seq), sizeof frame, MPI_BYTE, win_);
  MPI_Win_flush(target, win_);  // the frame lands before its notification
  const std::uint64_t one = 1;
  std::uint64_t position = 0;
  MPI_Fetch_and_op(&one, &position, MPI_UINT64_T, target, kTailOffset, MPI_SUM, win_);
  MPI_Win_flush(target, win_);
  const std::uint64_t entry = entry_for(position, rank_);
  MPI_Accumulate(&entry, 1, MPI_UINT64_T, target, queue_offset() + static_cast<MPI_Aint>(position % queue_length()) * 8,
                 1, MPI_UINT64_T, MPI_REPLACE, win_);
  MPI_Win_flush(target, win_);
}

std::optional<Envelope> OneSidedTransport::take_next() {
  MPI_Win_sync(win_);
  const std::uint64_t* slot = word_at(queue_offset() + static_cast<MPI_Aint>(head_ % queue_length()) * 8);
  const std::uint64_t entry = std::atomic_ref<std::uint64_t>(*const_cast<std::uint64_t*>(slot)).load(std::memory_order_acquire);
  if ((entry >> kSenderBits) != head_ + 1) {
    if ((++idle_polls_ & 15) == 0) make_progress();
    return std::nullopt;
  }
  ++head_;
  const int sender = static_cast<int>(entry & ((1u << kSenderBits) - 1));
  std::uint64_t& consumed = consumed_[static_cast<std::size_t>(sender)];
  const auto* frame = reinterpret_cast<const MessageFrame*>(base_ + slot_offset(sender, consumed));
  Envelope e = frame->open(sender);
  ++consumed;
  std::atomic_ref<std::uint64_t>(*word_at(consumed_offset() + static_cast<MPI_Aint>(sender) * 8))
      .store(consumed, std::memory_order_release);
  return e;
}

std::optional<Envelope> OneSidedTransport::poll() {
  if (!held_.empty()) {
    Envelope e = held_.front();
    held_.pop_front();
    return e;
  }
  return take_next();
}

void OneSidedTransport::reset_votes(std::uint32_t slot) {
  const std::uint64_t zero = 0;
  MPI_Accumulate(&zero, 1, MPI_UINT64_T, rank_, kVotesOffset + (slot % kVoteSlots) * 8, 1, MPI_UINT64_T, MPI_REPLACE,
                 win_);
  MPI_Win_flush(rank_, win_);
}

void OneSidedTransport::cast_vote(int coordinator, std::uint32_t slot, bool yes) {
  const std::uint64_t addend = yes ? kYesVote : kNoVote;
  std::uint64_t before = 0;
  MPI_Fetch_and_op(&addend, &before, MPI_UINT64_T, coordinator, kVotesOffset + (slot % kVoteSlots) * 8, MPI_SUM, win_);
  MPI_Win_flush(coordinator, win_);
}

VoteTally OneSidedTransport::votes(std::uint32_t slot) {
  MPI_Win_sync(win_);
  const std::uint64_t* word = word_at(kVotesOffset + (slot % kVoteSlots) * 8);
  const std::uint64_t tally = std::atomic_ref<std::uint64_t>(*const_cast<std::uint64_t*>(word)).load(std::memory_order_acquire);
  if ((++idle_polls_ & 15) == 0) make_progress();
  return VoteTally::of(tally);
}

}  // namespace hpcdb
