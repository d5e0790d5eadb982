#include "hpcdb/table/table_allgather.hpp"

#include <arrow/buffer.h>
#include <arrow/io/interfaces.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/reader.h>
#include <arrow/ipc/writer.h>

#include <span>

#include "hpcdb/net/agreement.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/memory_pool.hpp"
#include "hpcdb/table/rank_exchange.hpp"

namespace hpcdb {
namespace {

const std::string kWhat = "cannot send a table to every rank";

// Buffers at least this large are sent where they are; smaller writes (the
// messages' metadata, padding, small buffers) are copied into blocks of
// their own.
constexpr std::int64_t kReferencedBytes = std::int64_t{1} << 12;

// The bytes of an IPC stream as pieces: the stream writer hands the sink
// each body buffer whole, and the sink keeps a reference to it rather than
// copying it. Encoding a share then copies its metadata, its buffers under
// kReferencedBytes and what Arrow's writer rebuilds (a sliced array's
// validity bitmap at an odd bit offset, string offsets not starting at 0),
// where copying all of it into one stream touched as many fresh pages as
// the share has.
class StreamPieces final : public arrow::io::OutputStream {
 public:
  arrow::Status Write(const void* data, std::int64_t bytes) override {
    small_.append(static_cast<const char*>(data), static_cast<std::size_t>(bytes));
    position_ += bytes;
    return arrow::Status::OK();
  }
  arrow::Status Write(const std::shared_ptr<arrow::Buffer>& data) override {
    if (data->size() < kReferencedBytes) return Write(data->data(), data->size());
    keep_small();
    pieces_.push_back(data);
    position_ += data->size();
    return arrow::Status::OK();
  }
  arrow::Status Close() override {
    keep_small();
    closed_ = true;
    return arrow::Status::OK();
  }
  bool closed() const override { return closed_; }
  arrow::Result<std::int64_t> Tell() const override { return position_; }

  // After Close().
  std::vector<std::span<const std::byte>> spans() const {
    std::vector<std::span<const std::byte>> spans;
    for (const auto& piece : pieces_) {
      spans.emplace_back(reinterpret_cast<const std::byte*>(piece->data()), static_cast<std::size_t>(piece->size()));
    }
    return spans;
  }

 private:
  void keep_small() {
    if (small_.empty()) return;
    pieces_.push_back(arrow::Buffer::FromString(std::move(small_)));
    small_.clear();
  }

  std::vector<std::shared_ptr<arrow::Buffer>> pieces_;
  std::string small_;
  std::int64_t position_ = 0;
  bool closed_ = false;
};

std::shared_ptr<StreamPieces> ipc_stream(const DistributedTable& share) {
  auto sink = std::make_shared<StreamPieces>();
  auto writer = value_of(arrow::ipc::MakeStreamWriter(sink, share.schema), kWhat);
  for (const auto& batch : share.batches) {
    if (batch->num_rows() > 0) check_arrow(writer->WriteRecordBatch(*batch), kWhat);
  }
  check_arrow(writer->Close(), kWhat);
  check_arrow(sink->Close(), kWhat);  // the stream writer leaves its sink open
  return sink;
}

std::vector<std::shared_ptr<arrow::RecordBatch>> batches_of(const std::shared_ptr<arrow::Buffer>& stream) {
  auto input = std::make_shared<arrow::io::BufferReader>(stream);
  arrow::ipc::IpcReadOptions options = arrow::ipc::IpcReadOptions::Defaults();
  options.memory_pool = table_memory_pool();
  auto reader = value_of(arrow::ipc::RecordBatchStreamReader::Open(input, options), kWhat);
  return value_of(reader->ToRecordBatches(), kWhat);
}

// Every other rank's stream, each whole from its offset on (the own rank's
// empty). Collective. The receive buffer is not zero-filled: every byte is
// received.
ReceivedBlocks exchange_streams(const Cluster& cluster, const StreamPieces& mine, std::uint64_t& bytes_sent) {
  ReceivedBlocks received;
  const auto make_room = [&](std::uint64_t bytes) {
    received.buffer = value_of(arrow::AllocateBuffer(static_cast<std::int64_t>(bytes), table_memory_pool()), kWhat);
    return reinterpret_cast<std::byte*>(received.buffer->mutable_data());
  };
  received.offsets = allgather_pieces(cluster, mine.spans(), make_room, bytes_sent);
  return received;
}

}  // namespace

AllgatheredTable allgather_table(const Cluster& cluster, const DistributedTable& share, std::uint64_t& bytes_sent) {
  const auto ranks = static_cast<std::size_t>(cluster.size()), me = static_cast<std::size_t>(cluster.rank());
  ReceivedBlocks received;
  if (ranks > 1) {
    // Encoded with every rank's failure agreed before any rank goes on.
    std::shared_ptr<StreamPieces> mine;
    run_collectively(cluster.world(), [&] { mine = ipc_stream(share); });
    received = exchange_streams(cluster, *mine, bytes_sent);
  }
  AllgatheredTable result;
  result.table.schema = share.schema;
  result.first_row.push_back(0);
  for (std::size_t s = 0; s < ranks; ++s) {
    if (s == me) {
      for (const auto& batch : share.batches) result.table.batches.push_back(batch);
    } else if (received.offsets[s + 1] > received.offsets[s]) {
      const auto slice = arrow::SliceBuffer(received.buffer, static_cast<std::int64_t>(received.offsets[s]),
                                            static_cast<std::int64_t>(received.offsets[s + 1] - received.offsets[s]));
      for (auto& batch : batches_of(slice)) result.table.batches.push_back(std::move(batch));
    }
    result.first_row.push_back(static_cast<std::uint64_t>(result.table.rows()));
  }
  return result;
}

}  // namespace hpcdb
