#include "hpcdb/join/tables/row_fetch.hpp"

#include <arrow/buffer.h>
#include <arrow/util/bit_util.h>

#include <cstring>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/column_types.hpp"
#include "hpcdb/table/rank_exchange.hpp"
#include "hpcdb/table/memory_pool.hpp"

namespace hpcdb {
namespace {

std::shared_ptr<arrow::Buffer> allocate(std::uint64_t bytes) {
  return value_of(arrow::AllocateBuffer(static_cast<std::int64_t>(bytes), table_memory_pool()), "cannot allocate a result column");
}

std::vector<std::uint64_t> scaled(const std::vector<std::uint64_t>& first, std::uint64_t width) {
  std::vector<std::uint64_t> offsets(first.size());
  for (std::size_t i = 0; i < first.size(); ++i) offsets[i] = first[i] * width;
  return offsets;
}

}  // namespace

std::byte* FetchScratch::Bytes::at_least(std::uint64_t bytes) {
  if (bytes > size_ || !data_) {
    data_.reset();  // the old buffer goes before the new one comes
    data_ = std::make_unique_for_overwrite<std::byte[]>(std::max<std::uint64_t>(bytes, 1));
    size_ = bytes;
  }
  return data_.get();
}

RowFetch::RowFetch(const Cluster& cluster, const DistributedTable& table, const RowDirectory& directory,
                   std::span<const std::uint64_t> rows, std::uint64_t& bytes_sent)
    : cluster_(cluster), table_(table) {
  const auto ranks = static_cast<std::size_t>(cluster.size());
  // Requests grouped by owner, as global row numbers (the owner makes them
  // local). Rows asked in owner order are sent as they are, with no copy.
  request_first_.assign(ranks + 1, 0);
  int previous = 0;
  for (const std::uint64_t row : rows) {
    const int owner = directory.owner(row);
    ++request_first_[static_cast<std::size_t>(owner) + 1];
    in_order_ = in_order_ && owner >= previous;
    previous = owner;
  }
  for (std::size_t r = 0; r < ranks; ++r) request_first_[r + 1] += request_first_[r];
  std::vector<std::uint64_t> grouped;
  if (!in_order_) {
    grouped.resize(rows.size());
    placement_.resize(rows.size());
    std::vector<std::uint64_t> next(request_first_.begin(), request_first_.end() - 1);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const std::uint64_t slot = next[static_cast<std::size_t>(directory.owner(rows[i]))]++;
      grouped[slot] = rows[i];
      placement_[i] = slot;
    }
  }
  const std::uint64_t* requests = in_order_ ? rows.data() : grouped.data();
  std::vector<std::span<const std::byte>> blocks(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    blocks[r] = {reinterpret_cast<const std::byte*>(requests + request_first_[r]),
                 (request_first_[r + 1] - request_first_[r]) * sizeof(std::uint64_t)};
  }
  ReceivedBlocks received = exchange_blocks(cluster, blocks, bytes_sent);
  grouped = {};
  asked_ = locate_rows(table, received.bytes(), directory.first(cluster.rank()));
  asked_first_ = received.offsets;
  for (std::uint64_t& first : asked_first_) first /= sizeof(std::uint64_t);
}

std::shared_ptr<arrow::Array> RowFetch::column(int column, FetchScratch& scratch, std::uint64_t& bytes_sent) const {
  const ShareColumn values(table_, column);
  const std::shared_ptr<arrow::DataType>& type = values.type();
  const auto rows = static_cast<std::int64_t>(request_first_.back());
  std::shared_ptr<arrow::Buffer> validity;
  std::int64_t null_count = 0;
  if (allreduce(values.has_nulls() ? 1 : 0, MPI_MAX, cluster_.world()) == 1) {
    std::tie(validity, null_count) = fetch_flags(values, true, scratch, bytes_sent);
    if (null_count == 0) validity = nullptr;
  }
  if (is_string_type(*type)) return fetch_strings(values, std::move(validity), null_count, scratch, bytes_sent);
  std::shared_ptr<arrow::Buffer> data = type->id() == arrow::Type::BOOL
                                            ? fetch_flags(values, false, scratch, bytes_sent).first
                                            : fetch_fixed(values, fixed_value_bytes(*type), scratch, bytes_sent);
  return arrow::MakeArray(arrow::ArrayData::Make(type, rows, {std::move(validity), std::move(data)}, null_count));
}

const std::byte* RowFetch::exchange(const Gather& gather, const std::vector<std::uint64_t>& send_offsets,
                                    const std::vector<std::uint64_t>& receive_offsets, std::byte* into, std::byte* send,
                                    std::byte* receive, std::uint64_t& bytes_sent) const {
  const auto ranks = static_cast<std::size_t>(cluster_.size()), me = static_cast<std::size_t>(cluster_.rank());
  std::byte* in = into ? into : receive;
  std::vector<std::span<const std::byte>> outgoing(ranks);
  std::vector<std::span<std::byte>> incoming(ranks);
  for (std::size_t d = 0; d < ranks; ++d) {
    const std::span<const RowLocation> rows(asked_.data() + asked_first_[d], asked_first_[d + 1] - asked_first_[d]);
    // The own rank's values go straight to where they are received.
    gather(static_cast<int>(d), rows, d == me ? in + receive_offsets[me] : send + send_offsets[d]);
    if (d != me) outgoing[d] = {send + send_offsets[d], send_offsets[d + 1] - send_offsets[d]};
    if (d != me) incoming[d] = {in + receive_offsets[d], receive_offsets[d + 1] - receive_offsets[d]};
  }
  exchange_spans(cluster_, outgoing, incoming, bytes_sent);
  return in;
}

std::vector<std::uint64_t> RowFetch::sent_offsets(std::uint64_t width) const { return scaled(asked_first_, width); }

std::vector<std::uint64_t> RowFetch::received_offsets(std::uint64_t width) const { return scaled(request_first_, width); }

std::span<const std::uint64_t> RowFetch::placement() const { return placement_; }

std::shared_ptr<arrow::Buffer> RowFetch::fetch_fixed(const ShareColumn& values, int width, FetchScratch& scratch,
                                                     std::uint64_t& bytes_sent) const {
  const auto w = static_cast<std::uint64_t>(width);
  const std::vector<std::uint64_t> send_offsets = sent_offsets(w), receive_offsets = received_offsets(w);
  std::shared_ptr<arrow::Buffer> out = allocate(receive_offsets.back());
  auto* out_bytes = reinterpret_cast<std::byte*>(out->mutable_data());
  // In order, the values are received into the result column itself.
  const std::byte* got = exchange([&](int, std::span<const RowLocation> rows, std::byte* to) { values.gather_fixed(rows, width, to); },
                                  send_offsets, receive_offsets, in_order_ ? out_bytes : nullptr,
                                  scratch.send(send_offsets.back()), in_order_ ? nullptr : scratch.receive(receive_offsets.back()),
                                  bytes_sent);
  if (!in_order_) place_fixed(got, placement_, width, out_bytes);
  return out;
}

std::pair<std::shared_ptr<arrow::Buffer>, std::int64_t> RowFetch::fetch_flags(const ShareColumn& values, bool validity,
                                                                               FetchScratch& scratch,
                                                                               std::uint64_t& bytes_sent) const {
  const std::vector<std::uint64_t> send_offsets = sent_offsets(1), receive_offsets = received_offsets(1);
  const std::byte* got = exchange(
      [&](int, std::span<const RowLocation> rows, std::byte* to) { values.gather_flags(rows, validity, to); }, send_offsets,
      receive_offsets, nullptr, scratch.send(send_offsets.back()), scratch.receive(receive_offsets.back()), bytes_sent);
  const auto rows = static_cast<std::int64_t>(receive_offsets.back());
  std::shared_ptr<arrow::Buffer> bitmap = allocate(static_cast<std::uint64_t>(arrow::bit_util::BytesForBits(rows)));
  const std::int64_t zeros = place_flags(got, placement(), bitmap->mutable_data(), rows);
  return {bitmap, zeros};
}

std::shared_ptr<arrow::Array> RowFetch::fetch_strings(const ShareColumn& values, std::shared_ptr<arrow::Buffer> validity,
                                                      std::int64_t null_count, FetchScratch& scratch,
                                                      std::uint64_t& bytes_sent) const {
  const auto ranks = static_cast<std::size_t>(cluster_.size());
  const auto w = static_cast<std::uint64_t>(string_offset_bytes(*values.type()));
  // First the lengths (their sums per asker are the byte blocks' sizes) ...
  std::vector<std::uint64_t> sent_bytes(ranks + 1, 0);
  const std::vector<std::uint64_t> length_offsets = received_offsets(w);
  const std::byte* lengths = exchange(
      [&](int asker, std::span<const RowLocation> rows, std::byte* to) {
        sent_bytes[static_cast<std::size_t>(asker) + 1] = values.gather_lengths(rows, to);
      },
      sent_offsets(w), length_offsets, nullptr, scratch.send(asked_first_.back() * w), scratch.receive(length_offsets.back()),
      bytes_sent);
  std::vector<std::uint64_t> received_bytes(ranks + 1, 0);
  for (std::size_t s = 0; s < ranks; ++s) {
    sent_bytes[s + 1] += sent_bytes[s];
    received_bytes[s + 1] = received_bytes[s] + sum_lengths(*values.type(), lengths + length_offsets[s],
                                                            request_first_[s + 1] - request_first_[s]);
  }
  // ... then the strings' bytes.
  const std::byte* bytes = exchange(
      [&](int asker, std::span<const RowLocation> rows, std::byte* to) {
        const auto a = static_cast<std::size_t>(asker);
        values.gather_string_bytes(rows, to, to + (sent_bytes[a + 1] - sent_bytes[a]));
      },
      sent_bytes,
      received_bytes, nullptr, scratch.send(sent_bytes.back()), scratch.receive_more(received_bytes.back()), bytes_sent);
  return place_strings(values.type(), lengths, bytes, placement(), static_cast<std::int64_t>(request_first_.back()),
                       std::move(validity), null_count);
}

}  // namespace hpcdb
