#pragma once
// The MPI window that holds every rank's incoming rings (MPI_Win_allocate,
// passive target, locked for all ranks once at creation and unlocked only
// when destroyed). Per rank, for every peer p and priority class c:
//
//   head(p, c)  written by sender p: bytes it has written into ring(p, c)
//   tail(p, c)  written by receiver p: bytes it has consumed of the ring
//               this rank writes into p's window (the sender's flow control)
//   ring(p, c)  ring_bytes of records from sender p
//
// Head and tail words sit in their own cache lines and are written with an
// atomic MPI_Accumulate (MPI_REPLACE) and read with an atomic load after
// MPI_Win_sync, so a reader never sees a torn word.
#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "hpcdb/net/messaging/message_layer_config.hpp"

namespace hpcdb {

class RingWindow {
 public:
  // Collective over `comm`; Error when MPI cannot create the window.
  RingWindow(MPI_Comm comm, int ranks, std::size_t ring_bytes);
  ~RingWindow();  // collective
  RingWindow(const RingWindow&) = delete;
  RingWindow& operator=(const RingWindow&) = delete;

  MPI_Win handle() const { return win_; }
  // Leaves the window to MPI_Finalize or MPI_Abort (no collective on destruction).
  void forget() { win_ = MPI_WIN_NULL; }
  std::size_t ring_bytes() const { return ring_bytes_; }
  std::size_t bytes() const { return bytes_; }

  MPI_Aint head_offset(int sender, Priority c) const { return slot(sender, c) * kLine; }
  MPI_Aint tail_offset(int receiver, Priority c) const { return (slots() + slot(receiver, c)) * kLine; }
  MPI_Aint ring_offset(int sender, Priority c) const {
    return 2 * slots() * kLine + slot(sender, c) * static_cast<MPI_Aint>(ring_bytes_);
  }

  // This rank's own memory at `offset`.
  std::byte* local(MPI_Aint offset) const { return base_ + offset; }
  // Atomic read of one of this rank's head or tail words.
  std::uint64_t load_word(MPI_Aint offset) const {
    return std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(base_ + offset))
        .load(std::memory_order_acquire);
  }
  // Makes words that peers wrote visible to the loads above.
  void sync() const { MPI_Win_sync(win_); }
  // Atomically replaces the word at `offset` in `target`'s window with the
  // value at `source`, which must stay unchanged until the next flush(target).
  void put_word(const std::uint64_t* source, int target, MPI_Aint offset) const {
    MPI_Accumulate(source, 1, MPI_UINT64_T, target, offset, 1, MPI_UINT64_T, MPI_REPLACE, win_);
  }
  void put(const void* source, std::size_t bytes, int target, MPI_Aint offset) const {
    MPI_Put(source, static_cast<int>(bytes), MPI_BYTE, target, offset, static_cast<int>(bytes), MPI_BYTE, win_);
  }
  void flush(int target) const { MPI_Win_flush(target, win_); }

  static std::size_t bytes_for(int ranks, std::size_t ring_bytes) {
    return static_cast<std::size_t>(ranks) * kPriorityClasses * (2 * kLine + ring_bytes);
  }

 private:
  static constexpr MPI_Aint kLine = 64;
  MPI_Aint slots() const { return static_cast<MPI_Aint>(ranks_) * kPriorityClasses; }
  static MPI_Aint slot(int rank, Priority c) { return static_cast<MPI_Aint>(rank) * kPriorityClasses + static_cast<int>(c); }

  int ranks_;
  std::size_t ring_bytes_;
  std::size_t bytes_;
  MPI_Win win_ = MPI_WIN_NULL;
  std::byte* base_ = nullptr;
};

}  // namespace hpcdb
