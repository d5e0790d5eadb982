#include "hpcdb/table/batch_exchange.hpp"

#include <arrow/buffer.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/reader.h>
#include <arrow/ipc/writer.h>

#include <span>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/rank_exchange.hpp"
#include "hpcdb/table/memory_pool.hpp"

namespace hpcdb {

std::shared_ptr<arrow::RecordBatch> empty_batch(const std::shared_ptr<arrow::Schema>& schema) {
  return value_of(arrow::RecordBatch::MakeEmpty(schema, table_memory_pool()), "cannot make an empty batch");
}

namespace {

// Each other rank's batch in Arrow's IPC format (memory from the engine's
// pool); none for the own rank, whose batch stays as it is.
std::vector<std::shared_ptr<arrow::Buffer>> serialize_for_others(
    const Cluster& cluster, const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches, const std::string& what) {
  arrow::ipc::IpcWriteOptions options = arrow::ipc::IpcWriteOptions::Defaults();
  options.memory_pool = table_memory_pool();
  std::vector<std::shared_ptr<arrow::Buffer>> serialized(batches.size());
  for (std::size_t d = 0; d < batches.size(); ++d) {
    if (!batches[d] || d == static_cast<std::size_t>(cluster.rank())) continue;
    serialized[d] = value_of(arrow::ipc::SerializeRecordBatch(*batches[d], options), what);
  }
  return serialized;
}

std::shared_ptr<arrow::RecordBatch> read_batch(const std::shared_ptr<arrow::Buffer>& block,
                                               const std::shared_ptr<arrow::Schema>& schema, const std::string& what) {
  arrow::io::BufferReader reader(block);
  auto message = value_of(arrow::ipc::ReadMessage(&reader), what);
  if (!message) throw Error(what + ": an empty message arrived");
  arrow::ipc::DictionaryMemo memo;
  arrow::ipc::IpcReadOptions options = arrow::ipc::IpcReadOptions::Defaults();
  options.memory_pool = table_memory_pool();
  return value_of(arrow::ipc::ReadRecordBatch(*message, schema, &memo, options), what);
}

}  // namespace

std::vector<std::shared_ptr<arrow::RecordBatch>> exchange_batches(
    const Cluster& cluster, const std::shared_ptr<arrow::Schema>& schema,
    const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches, std::uint64_t& bytes_sent) {
  const std::string what = "cannot exchange record batches";
  const auto me = static_cast<std::size_t>(cluster.rank());
  std::vector<std::shared_ptr<arrow::Buffer>> serialized;
  run_collectively(cluster.world(), [&] { serialized = serialize_for_others(cluster, batches, what); });
  std::vector<std::span<const std::byte>> blocks(batches.size());
  for (std::size_t d = 0; d < batches.size(); ++d) {
    if (serialized[d]) {
      blocks[d] = {reinterpret_cast<const std::byte*>(serialized[d]->data()), static_cast<std::size_t>(serialized[d]->size())};
    }
  }
  const ReceivedBlocks received = exchange_blocks(cluster, blocks, bytes_sent);
  serialized.clear();
  // A message that cannot be read (a peer's corrupt one) ends every rank,
  // not only the one that received it.
  std::vector<std::shared_ptr<arrow::RecordBatch>> result;
  run_collectively(cluster.world(), [&] {
    for (std::size_t s = 0; s < batches.size(); ++s) {
      const std::uint64_t begin = received.offsets[s], end = received.offsets[s + 1];
      if (s == me) {
        result.push_back(batches[s] ? batches[s] : empty_batch(schema));
      } else if (begin == end) {
        result.push_back(empty_batch(schema));
      } else {
        const auto block = arrow::SliceBuffer(received.buffer, static_cast<std::int64_t>(begin),
                                              static_cast<std::int64_t>(end - begin));
        result.push_back(read_batch(block, schema, what));
      }
    }
  });
  return result;
}

}  // namespace hpcdb
