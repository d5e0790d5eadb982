#include "hpcdb/table/table_allgather.hpp"

#include <arrow/buffer.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/reader.h>
#include <arrow/ipc/writer.h>
#include <arrow/util/byte_size.h>

#include <span>

#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/memory_pool.hpp"
#include "hpcdb/table/rank_exchange.hpp"

namespace hpcdb {
namespace {

const std::string kWhat = "cannot send a table to every rank";

std::shared_ptr<arrow::Buffer> ipc_stream(const DistributedTable& share) {
  // Room for the whole stream up front (it grows by copying otherwise): the
  // bytes the batches refer to, and some for each batch's message.
  std::int64_t room = std::int64_t{1} << 16;
  for (const auto& batch : share.batches) room += value_of(arrow::util::ReferencedBufferSize(*batch), kWhat) + (1 << 12);
  auto sink = value_of(arrow::io::BufferOutputStream::Create(room, table_memory_pool()), kWhat);
  auto writer = value_of(arrow::ipc::MakeStreamWriter(sink, share.schema), kWhat);
  for (const auto& batch : share.batches) {
    if (batch->num_rows() > 0) check_arrow(writer->WriteRecordBatch(*batch), kWhat);
  }
  check_arrow(writer->Close(), kWhat);
  return value_of(sink->Finish(), kWhat);
}

std::vector<std::shared_ptr<arrow::RecordBatch>> batches_of(const std::shared_ptr<arrow::Buffer>& stream) {
  auto input = std::make_shared<arrow::io::BufferReader>(stream);
  arrow::ipc::IpcReadOptions options = arrow::ipc::IpcReadOptions::Defaults();
  options.memory_pool = table_memory_pool();
  auto reader = value_of(arrow::ipc::RecordBatchStreamReader::Open(input, options), kWhat);
  return value_of(reader->ToRecordBatches(), kWhat);
}

}  // namespace

AllgatheredTable allgather_table(const Cluster& cluster, const DistributedTable& share, std::uint64_t& bytes_sent) {
  const auto ranks = static_cast<std::size_t>(cluster.size()), me = static_cast<std::size_t>(cluster.rank());
  std::shared_ptr<arrow::Buffer> mine;
  if (ranks > 1) mine = ipc_stream(share);
  std::vector<std::span<const std::byte>> blocks(ranks);
  for (std::size_t d = 0; d < ranks; ++d) {
    if (d != me) blocks[d] = {reinterpret_cast<const std::byte*>(mine->data()), static_cast<std::size_t>(mine->size())};
  }
  ReceivedBlocks received = exchange_blocks(cluster, blocks, bytes_sent);
  mine.reset();
  const std::vector<std::uint64_t> offsets = received.offsets;
  const std::shared_ptr<arrow::Buffer> all = arrow::Buffer::FromVector(std::move(received.bytes));
  AllgatheredTable result;
  result.table.schema = share.schema;
  result.first_row.push_back(0);
  for (std::size_t s = 0; s < ranks; ++s) {
    if (s == me) {
      for (const auto& batch : share.batches) result.table.batches.push_back(batch);
    } else if (offsets[s + 1] > offsets[s]) {
      const auto slice = arrow::SliceBuffer(all, static_cast<std::int64_t>(offsets[s]),
                                            static_cast<std::int64_t>(offsets[s + 1] - offsets[s]));
      for (auto& batch : batches_of(slice)) result.table.batches.push_back(std::move(batch));
    }
    result.first_row.push_back(static_cast<std::uint64_t>(result.table.rows()));
  }
  return result;
}

}  // namespace hpcdb
