#pragma once
// Late materialization: the rows a join result needs, fetched column by
// column from the ranks that hold them (the 2012 thesis's payload
// splitting, for table columns: join/payload/payload_fetch.hpp does it for
// generated payloads). The requests (global row numbers, grouped by owner)
// go out once; each column then comes back in one exchange per buffer
// (validity, values; for strings lengths, then bytes): the owner writes the
// asked values into a send buffer, the own rank's straight into the receive
// buffer, and the asker puts them into the order it asked while building
// the result column (table/row_gather.hpp). Collective.
#include <arrow/array.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "hpcdb/join/tables/row_directory.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/table/distributed_table.hpp"
#include "hpcdb/table/row_gather.hpp"

namespace hpcdb {

// Buffers the fetches of one result reuse from column to column, so that
// only the result's own columns take new memory.
class FetchScratch {
 public:
  std::byte* send(std::uint64_t bytes) { return send_.at_least(bytes); }
  std::byte* receive(std::uint64_t bytes) { return receive_.at_least(bytes); }
  std::byte* receive_more(std::uint64_t bytes) { return receive_more_.at_least(bytes); }

 private:
  class Bytes {
   public:
    std::byte* at_least(std::uint64_t bytes);

   private:
    std::unique_ptr<std::byte[]> data_;
    std::uint64_t size_ = 0;
  };
  Bytes send_, receive_, receive_more_;
};

class RowFetch {
 public:
  // Collective: every rank asks for its `rows` of `table`.
  RowFetch(const Cluster& cluster, const DistributedTable& table, const RowDirectory& directory,
           std::span<const std::uint64_t> rows, std::uint64_t& bytes_sent);

  // Collective: column `column` of the asked rows, in the order asked.
  std::shared_ptr<arrow::Array> column(int column, FetchScratch& scratch, std::uint64_t& bytes_sent) const;

 private:
  // Writes the values of `rows`, those rank `asker` asked for, into `out`.
  using Gather = std::function<void(int asker, std::span<const RowLocation> rows, std::byte* out)>;
  // Sends every rank the values it asked for, send_offsets[d] bytes from
  // where rank d's begin, and receives those asked of rank s at
  // receive_offsets[s] of the returned buffer (`into` if not null).
  const std::byte* exchange(const Gather& gather, const std::vector<std::uint64_t>& send_offsets,
                            const std::vector<std::uint64_t>& receive_offsets, std::byte* into, std::byte* send,
                            std::byte* receive, std::uint64_t& bytes_sent) const;
  // Offsets of `width` bytes per asked row (sent) or requested row (received).
  std::vector<std::uint64_t> sent_offsets(std::uint64_t width) const;
  std::vector<std::uint64_t> received_offsets(std::uint64_t width) const;

  std::shared_ptr<arrow::Buffer> fetch_fixed(const ShareColumn& values, int width, FetchScratch& scratch,
                                             std::uint64_t& bytes_sent) const;
  // A bitmap of the flags (validity or bool values) and how many are 0.
  std::pair<std::shared_ptr<arrow::Buffer>, std::int64_t> fetch_flags(const ShareColumn& values, bool validity,
                                                                       FetchScratch& scratch,
                                                                       std::uint64_t& bytes_sent) const;
  std::shared_ptr<arrow::Array> fetch_strings(const ShareColumn& values, std::shared_ptr<arrow::Buffer> validity,
                                              std::int64_t null_count, FetchScratch& scratch,
                                              std::uint64_t& bytes_sent) const;
  std::span<const std::uint64_t> placement() const;

  const Cluster& cluster_;
  const DistributedTable& table_;
  std::vector<RowLocation> asked_;           // rows asked of this rank, grouped by asking rank
  std::vector<std::uint64_t> asked_first_;   // ranks + 1: where each asking rank's rows begin in asked_
  std::vector<std::uint64_t> request_first_; // ranks + 1: where the rows asked of each owner begin (source order)
  std::vector<std::uint64_t> placement_;     // request i's position among the answers (source order)
  bool in_order_ = true;                     // placement is the identity
};

}  // namespace hpcdb
