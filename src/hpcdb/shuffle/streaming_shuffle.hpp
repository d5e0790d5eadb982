#pragma once
// Every streaming design (all but mpi-alltoallv): each worker thread
// partitions its share of the rank's rows into batch buffers the transport
// provides, ships full ones while it goes on partitioning, and in between
// (and while it waits for credits) hands arriving batches to the consumer.
// Rows for the own rank go to the consumer straight from a local buffer.
// Afterwards a worker keeps receiving until every stream it owns is
// complete; the last worker to complete a source's streams signals that
// source's end of stream.
#include <memory>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/shuffle/shuffle.hpp"
#include "hpcdb/shuffle/stream_transport.hpp"

namespace hpcdb {

class StreamingShuffle final : public Shuffle {
 public:
  // Collective only through the transport's construction (already done).
  StreamingShuffle(const Cluster& cluster, const ShuffleConfig& config, std::unique_ptr<StreamTransport> transport);
  ~StreamingShuffle() override;

  ShuffleDesign design() const override { return config_.design; }
  ShuffleRunStats run(RowSpan input, ShuffleConsumer& consumer) override;
  ShuffleResources resources() const override;

 private:
  class Worker;

  const Cluster& cluster_;
  ShuffleConfig config_;
  std::unique_ptr<StreamTransport> transport_;
  std::vector<AlignedArray<std::byte>> own_buffers_;  // per worker: the batch buffer for rows that stay here
};

}  // namespace hpcdb
