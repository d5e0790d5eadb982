#pragma once
// The cyclo join's ring: every rank has two receive buffers in one MPI
// window, which its predecessor fills by one-sided puts (real RDMA where the
// network has it, shared-memory copies on one node, TCP otherwise).
//
// The part a rank handles in cycle k lies in its buffer k % 2. During cycle
// k it forwards that part into the successor's buffer (k + 1) % 2, in
// chunks, while it joins the part; a two-sided note then tells the
// successor the part is complete and how long it is. A buffer may be
// overwritten only once its owner has joined and forwarded what it held: the
// owner grants one credit per part to its predecessor. Cycles run from 0
// (the rank's own part, in buffer 0) to ranks - 1; the last cycle forwards
// nothing.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/duplicated_comm.hpp"
#include "hpcdb/net/rma_window.hpp"

namespace hpcdb {

struct RingTraffic {
  std::uint64_t bytes = 0;   // forwarded to the successor
  std::uint64_t chunks = 0;  // puts issued
};

class RingChannel {
 public:
  // Collective. `buffer_bytes` is each buffer's capacity, the same on every
  // rank; puts move at most `chunk_bytes` each.
  RingChannel(const Cluster& cluster, std::size_t buffer_bytes, std::size_t chunk_bytes);
  ~RingChannel();
  RingChannel(const RingChannel&) = delete;
  RingChannel& operator=(const RingChannel&) = delete;

  std::byte* buffer(unsigned cycle) const;
  std::size_t capacity() const { return buffer_bytes_; }
  unsigned cycles() const { return static_cast<unsigned>(ranks_); }

  // Starts cycle `cycle` whose part (in buffer(cycle)) holds `bytes` bytes:
  // its forward may begin as soon as the successor grants the credit, and
  // the next part's note is awaited.
  void begin_cycle(unsigned cycle, std::size_t bytes);
  // Non-blocking: issues the next chunk when allowed, lets MPI progress.
  void progress();
  // Completes the cycle: the rest of the forward, the note to the
  // successor, the credit to the predecessor.
  void end_cycle();
  // Blocks until the part of `cycle` (> 0) has arrived; returns its bytes.
  std::size_t wait_for_part(unsigned cycle);

  // What was forwarded since the last call.
  RingTraffic take_traffic() { return std::exchange(traffic_, RingTraffic{}); }

 private:
  bool forwards(unsigned cycle) const { return cycle + 1 < cycles(); }
  bool receives_credit_for(unsigned cycle) const { return cycle + 2 < cycles(); }
  void issue_chunk();

  int ranks_ = 1;
  int successor_ = 0;
  int predecessor_ = 0;
  std::size_t buffer_bytes_ = 0;
  std::size_t chunk_bytes_ = 0;
  DuplicatedComm comm_;  // private, so notes never meet other messages
  MemoryRegion memory_;
  RmaWindow window_;

  unsigned cycle_ = 0;
  std::size_t forward_bytes_ = 0;  // of this cycle's part
  std::size_t forwarded_ = 0;      // of which put so far
  bool credit_pending_ = false;    // the successor has not yet freed its buffer
  MPI_Request credit_request_ = MPI_REQUEST_NULL;
  std::uint64_t credit_ = 0;
  MPI_Request note_request_ = MPI_REQUEST_NULL;  // the next part's length
  std::uint64_t note_ = 0;
  bool note_arrived_ = false;
  // Notes and credits go out non-blocking: a blocking send could wait for
  // a peer that waits for this rank.
  MPI_Request note_out_request_ = MPI_REQUEST_NULL;
  std::uint64_t note_out_ = 0;
  MPI_Request credit_out_request_ = MPI_REQUEST_NULL;
  std::uint64_t credit_out_ = 0;
  RingTraffic traffic_;
};

}  // namespace hpcdb
