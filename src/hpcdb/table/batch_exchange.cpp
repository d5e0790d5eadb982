#include "hpcdb/table/batch_exchange.hpp"

#include <arrow/buffer.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/reader.h>
#include <arrow/ipc/writer.h>

#include <span>

#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/rank_exchange.hpp"
#include "hpcdb/table/memory_pool.hpp"

namespace hpcdb {

std::shared_ptr<arrow::RecordBatch> empty_batch(const std::shared_ptr<arrow::Schema>& schema) {
  return value_of(arrow::RecordBatch::MakeEmpty(schema, table_memory_pool()), "cannot make an empty batch");
}

std::vector<std::shared_ptr<arrow::RecordBatch>> exchange_batches(
    const Cluster& cluster, const std::shared_ptr<arrow::Schema>& schema,
    const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches, std::uint64_t& bytes_sent) {
  const std::string what = "cannot exchange record batches";
  std::vector<std::shared_ptr<arrow::Buffer>> serialized(batches.size());
  std::vector<std::span<const std::byte>> blocks(batches.size());
  for (std::size_t d = 0; d < batches.size(); ++d) {
    if (!batches[d]) continue;
    serialized[d] = value_of(arrow::ipc::SerializeRecordBatch(*batches[d], arrow::ipc::IpcWriteOptions::Defaults()), what);
    blocks[d] = {reinterpret_cast<const std::byte*>(serialized[d]->data()), static_cast<std::size_t>(serialized[d]->size())};
  }
  ReceivedBlocks received = exchange_blocks(cluster, blocks, bytes_sent);
  serialized.clear();
  const std::vector<std::uint64_t> offsets = received.offsets;
  const std::shared_ptr<arrow::Buffer> all = arrow::Buffer::FromVector(std::move(received.bytes));
  std::vector<std::shared_ptr<arrow::RecordBatch>> result;
  for (int source = 0; source < cluster.size(); ++source) {
    const auto s = static_cast<std::size_t>(source);
    if (offsets[s + 1] == offsets[s]) {
      result.push_back(empty_batch(schema));
      continue;
    }
    auto slice = arrow::SliceBuffer(all, static_cast<std::int64_t>(offsets[s]), static_cast<std::int64_t>(offsets[s + 1] - offsets[s]));
    arrow::io::BufferReader reader(slice);
    auto message = value_of(arrow::ipc::ReadMessage(&reader), what);
    if (!message) throw Error(what + ": an empty message arrived");
    arrow::ipc::DictionaryMemo memo;
    arrow::ipc::IpcReadOptions options = arrow::ipc::IpcReadOptions::Defaults();
    options.memory_pool = table_memory_pool();
    result.push_back(value_of(arrow::ipc::ReadRecordBatch(*message, schema, &memo, options), what));
  }
  return result;
}

}  // namespace hpcdb
