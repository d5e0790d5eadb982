#pragma once
// Record batches between all ranks: each rank sends rank d a batch (or none)
// of one schema, serialized in Arrow's IPC format, through exchange_blocks
// (rank_exchange.hpp); what arrives is read without a copy (the batches'
// buffers point into the received bytes), and the own rank's batch is
// kept as it is. Collective.
#include <arrow/record_batch.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// batches[d] goes to rank d (nullptr: nothing). Returns one batch per
// source rank, in rank order (empty batches where a rank sent nothing).
std::vector<std::shared_ptr<arrow::RecordBatch>> exchange_batches(
    const Cluster& cluster, const std::shared_ptr<arrow::Schema>& schema,
    const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches, std::uint64_t& bytes_sent);

// An empty batch of `schema`.
std::shared_ptr<arrow::RecordBatch> empty_batch(const std::shared_ptr<arrow::Schema>& schema);

}  // namespace hpcdb
