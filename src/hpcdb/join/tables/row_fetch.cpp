#include "hpcdb/join/tables/row_fetch.hpp"

#include <cstring>
#include <span>

#include "hpcdb/table/batch_exchange.hpp"
#include "hpcdb/table/column_take.hpp"
#include "hpcdb/table/rank_exchange.hpp"

namespace hpcdb {

RowFetch::RowFetch(const Cluster& cluster, const DistributedTable& table, const RowDirectory& directory,
                   const std::vector<std::uint64_t>& rows, std::uint64_t& bytes_sent)
    : cluster_(cluster), table_(table) {
  const auto ranks = static_cast<std::size_t>(cluster.size());
  // Requests grouped by owner (counting sort), as local row numbers of the owner.
  std::vector<int> owner(rows.size());
  std::vector<std::uint64_t> count(ranks + 1, 0);
  for (std::size_t i = 0; i < rows.size(); ++i) ++count[static_cast<std::size_t>(owner[i] = directory.owner(rows[i])) + 1];
  for (std::size_t r = 0; r < ranks; ++r) count[r + 1] += count[r];
  std::vector<std::uint64_t> requests(rows.size());
  placement_.resize(rows.size());
  std::vector<std::uint64_t> next(count.begin(), count.end() - 1);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::uint64_t slot = next[static_cast<std::size_t>(owner[i])]++;
    requests[slot] = rows[i] - directory.first(owner[i]);
    placement_[i] = slot;
    in_order_ = in_order_ && slot == i;
  }
  std::vector<std::span<const std::byte>> blocks(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    blocks[r] = {reinterpret_cast<const std::byte*>(requests.data() + count[r]), (count[r + 1] - count[r]) * sizeof(std::uint64_t)};
  }
  const ReceivedBlocks received = exchange_blocks(cluster, blocks, bytes_sent);
  asked_.resize(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    const std::span<const std::byte> block = received.from(static_cast<int>(r));
    asked_[r].resize(block.size() / sizeof(std::uint64_t));
    if (!block.empty()) std::memcpy(asked_[r].data(), block.data(), block.size());
  }
}

std::shared_ptr<arrow::Array> RowFetch::column(int column, std::uint64_t& bytes_sent) const {
  const auto ranks = static_cast<std::size_t>(cluster_.size());
  const std::shared_ptr<arrow::ChunkedArray> values = share_column(table_, column);
  const auto field = table_.schema->field(column);
  const auto schema = arrow::schema({field});
  std::vector<std::shared_ptr<arrow::RecordBatch>> answers(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    if (asked_[r].empty()) continue;
    std::shared_ptr<arrow::Array> taken = take_rows(*values, asked_[r]);
    answers[r] = arrow::RecordBatch::Make(schema, taken->length(), {taken});
  }
  const std::vector<std::shared_ptr<arrow::RecordBatch>> received = exchange_batches(cluster_, schema, answers, bytes_sent);
  std::vector<std::shared_ptr<arrow::Array>> parts;
  for (const auto& batch : received) {
    if (batch->num_rows() > 0) parts.push_back(batch->column(0));
  }
  std::shared_ptr<arrow::Array> in_source_order = concatenate_arrays(parts, field->type());
  if (in_order_) return in_source_order;
  return take_rows(in_source_order, placement_);
}

}  // namespace hpcdb
