#pragma once
// What a shuffle moves and how: the transport design, the row width, and the
// memory every stream of batches may use (buffer size x credits).
#include <cstddef>
#include <cstdint>
#include <string>

#include "hpcdb/core/named_values.hpp"
#include "hpcdb/net/messaging/message_layer_config.hpp"

namespace hpcdb {

enum class ShuffleDesign {
  mpi_alltoallv,  // counts exchanged, then one MPI_Alltoallv (the baseline)
  mpi_two_sided,  // streaming MPI_Isend into pre-posted MPI_Irecv, credits per peer stream
  mpi_one_sided,  // puts into per-source receive rings in windows, notification and credit counters
  message_layer,  // the engine's hybrid message layer (small ring / large two-sided)
  ucx_tag,        // UCX tagged messages, one worker per rank, endpoints shared by its threads
  ucx_am,         // UCX active messages, one worker and one endpoint per peer for every thread
};

inline constexpr NamedValues<ShuffleDesign, 6> kShuffleDesignNames{{
    {ShuffleDesign::mpi_alltoallv, "mpi-alltoallv"},
    {ShuffleDesign::mpi_two_sided, "mpi-two-sided"},
    {ShuffleDesign::mpi_one_sided, "mpi-one-sided"},
    {ShuffleDesign::message_layer, "message-layer"},
    {ShuffleDesign::ucx_tag, "ucx-tag"},
    {ShuffleDesign::ucx_am, "ucx-am"},
}};

inline std::string to_string(ShuffleDesign design) { return name_of(design, kShuffleDesignNames); }

// How the partitioner writes rows into batch buffers (batch_partitioner.hpp).
enum class RowWrites { automatic, direct, combining };

inline constexpr NamedValues<RowWrites, 3> kRowWritesNames{{
    {RowWrites::automatic, "auto"},
    {RowWrites::direct, "direct"},
    {RowWrites::combining, "combining"},
}};

// Every batch starts with a 64-byte header (batch_header.hpp).
inline constexpr std::size_t kBatchHeaderBytes = 64;
// message-layer: a batch buffer is one of the layer's pooled buffers, whose
// first 64 bytes hold the layer's message header and padding, so that the
// batch starts on a cache line (message_layer_transport.hpp).
inline constexpr std::size_t kMessageLayerHeadroom = 64;

struct ShuffleConfig {
  ShuffleDesign design = ShuffleDesign::mpi_one_sided;
  std::uint32_t row_bytes = 16;
  // Bytes of one batch buffer, header included (message-layer: the layer's
  // headroom too).
  std::size_t buffer_bytes = 256 * 1024;
  // Credits: buffers a receiver holds for each (source rank, source thread)
  // stream, so at most this many batches of a stream are in flight.
  unsigned buffers = 4;
  // Worker threads per rank; thread t of every rank sends to and receives
  // from thread t of every other rank.
  unsigned threads = 1;
  // mpi-one-sided: ranks of one node write straight into each other's
  // rings (shared memory); off sends them through MPI RMA like remote ranks.
  bool direct_writes = true;
  // Direct stores, software write-combining (rows of 16, 32 or 64 bytes),
  // or chosen by fan-out.
  RowWrites row_writes = RowWrites::automatic;
  // message-layer: the layer's settings (threshold, rings, network threads).
  MessageLayerConfig layer;
  // Testing aid: every stream sends each batch after the one acquired after
  // it (and its last batch before its second-last), so that batches arrive
  // out of order.
  bool reorder_batches = false;
};

// Throws UsageError (the same on every rank) for a row width that is not a
// multiple of 8 in [16, 4096], a buffer that holds no row after its header,
// zero credits or threads, or write-combining of rows that do not tile a
// cache line.
void validate(const ShuffleConfig& config);

// Rows that fit one batch buffer after the header (and the message layer's
// headroom; for widths that tile a cache line: whole cache lines of rows).
std::size_t rows_per_batch(const ShuffleConfig& config);

}  // namespace hpcdb
