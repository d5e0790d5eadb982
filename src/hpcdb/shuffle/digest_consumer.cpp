#include "hpcdb/shuffle/digest_consumer.hpp"

namespace hpcdb {

DigestConsumer::DigestConsumer(int ranks, unsigned workers, std::uint32_t row_bytes)
    : ranks_(static_cast<std::size_t>(ranks)),
      row_bytes_(row_bytes),
      workers_(workers),
      ends_(std::make_unique<std::atomic<unsigned>[]>(static_cast<std::size_t>(ranks))),
      rows_at_end_(static_cast<std::size_t>(ranks), 0) {
  reset();
}

void DigestConsumer::reset() {
  for (WorkerDigests& w : workers_) w.by_source.assign(ranks_, RowDigest{});
  for (std::size_t s = 0; s < ranks_; ++s) ends_[s].store(0);
  rows_at_end_.assign(ranks_, 0);
}

void DigestConsumer::consume(unsigned worker, int source, const std::byte* rows, std::size_t count) {
  workers_[worker].by_source[static_cast<std::size_t>(source)] += digest_rows(rows, count, row_bytes_);
}

std::uint64_t DigestConsumer::rows_so_far(int source) const {
  std::uint64_t rows = 0;
  for (const WorkerDigests& w : workers_) rows += w.by_source[static_cast<std::size_t>(source)].rows;
  return rows;
}

void DigestConsumer::end_of_stream(int source) {
  // Every stream of `source` is complete, so no worker writes its counts any more.
  rows_at_end_[static_cast<std::size_t>(source)] = rows_so_far(source);
  ends_[static_cast<std::size_t>(source)].fetch_add(1, std::memory_order_acq_rel);
}

std::vector<RowDigest> DigestConsumer::received() const {
  std::vector<RowDigest> sum(ranks_);
  for (const WorkerDigests& w : workers_)
    for (std::size_t s = 0; s < ranks_; ++s) sum[s] += w.by_source[s];
  return sum;
}

std::vector<unsigned> DigestConsumer::ends() const {
  std::vector<unsigned> result(ranks_);
  for (std::size_t s = 0; s < ranks_; ++s) result[s] = ends_[s].load();
  return result;
}

std::vector<std::uint64_t> DigestConsumer::rows_at_end() const { return rows_at_end_; }

}  // namespace hpcdb
