#pragma once
// A consumer that reads every row it is handed: it keeps, per source rank,
// the count and order-independent checksum of the rows received
// (kernels/row_checksum.hpp), and checks that each source's end of stream
// comes exactly once and after all of that source's rows.
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "hpcdb/kernels/row_checksum.hpp"
#include "hpcdb/shuffle/shuffle_consumer.hpp"

namespace hpcdb {

class DigestConsumer final : public ShuffleConsumer {
 public:
  DigestConsumer(int ranks, unsigned workers, std::uint32_t row_bytes);

  void consume(unsigned worker, int source, const std::byte* rows, std::size_t count) override;
  void end_of_stream(int source) override;

  // Before each exchange.
  void reset();

  // Rows and checksum received from each source (all workers).
  std::vector<RowDigest> received() const;
  // How often each source's end of stream was signalled.
  std::vector<unsigned> ends() const;
  // Per source: rows received from it by the time its end of stream came.
  std::vector<std::uint64_t> rows_at_end() const;

 private:
  struct alignas(64) WorkerDigests {
    std::vector<RowDigest> by_source;
  };
  std::uint64_t rows_so_far(int source) const;

  std::size_t ranks_;
  std::uint32_t row_bytes_;
  std::vector<WorkerDigests> workers_;
  std::unique_ptr<std::atomic<unsigned>[]> ends_;
  std::vector<std::uint64_t> rows_at_end_;
};

}  // namespace hpcdb
