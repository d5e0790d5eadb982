#include "hpcdb/table/table_gather.hpp"

#include <arrow/buffer.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/reader.h>
#include <arrow/ipc/writer.h>

#include <string>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/gather.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/schema_agreement.hpp"

namespace hpcdb {
namespace {

std::string ipc_stream_of(const arrow::Table& table) {
  auto sink = value_of(arrow::io::BufferOutputStream::Create(), "cannot allocate the gather's buffer");
  auto writer = value_of(arrow::ipc::MakeStreamWriter(sink, table.schema()), "cannot encode the table to gather");
  check_arrow(writer->WriteTable(table), "cannot encode the table to gather");
  check_arrow(writer->Close(), "cannot encode the table to gather");
  const auto buffer = value_of(sink->Finish(), "cannot encode the table to gather");
  return buffer->ToString();
}

std::vector<std::shared_ptr<arrow::RecordBatch>> batches_of(const std::string& stream) {
  auto input = std::make_shared<arrow::io::BufferReader>(arrow::Buffer::FromString(stream));
  auto reader = value_of(arrow::ipc::RecordBatchStreamReader::Open(input), "cannot decode a gathered share");
  return value_of(reader->ToRecordBatches(), "cannot decode a gathered share");
}

}  // namespace

std::shared_ptr<arrow::Table> gather_table(const Cluster& cluster, const std::shared_ptr<arrow::Table>& share, int root) {
  if (root < 0 || root >= cluster.size()) {
    throw UsageError("gather's root " + std::to_string(root) + " names no rank: this job has ranks 0 to " +
                     std::to_string(cluster.size() - 1));
  }
  const std::shared_ptr<arrow::Table> agreed = agreed_share(cluster, share, "gathered");
  std::string mine;
  run_collectively(cluster.world(), [&] { mine = ipc_stream_of(*agreed); });
  std::vector<std::string> streams;
  run_collectively(cluster.world(), [&] { streams = gather_texts(mine, root, cluster.world()); });
  if (cluster.rank() != root) return nullptr;
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  for (const std::string& stream : streams) {
    for (auto& batch : batches_of(stream)) batches.push_back(std::move(batch));
  }
  return value_of(arrow::Table::FromRecordBatches(agreed->schema(), batches), "cannot assemble the gathered table");
}

}  // namespace hpcdb
