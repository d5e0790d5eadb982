#include "hpcdb/model/shuffle_kernel_rates.hpp"

#include <algorithm>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/data/row_workload.hpp"
#include "hpcdb/kernels/row.hpp"
#include "hpcdb/model/best_time.hpp"
#include "hpcdb/shuffle/batch_partitioner.hpp"
#include "hpcdb/shuffle/digest_consumer.hpp"
#include "hpcdb/shuffle/row_router.hpp"

namespace hpcdb {
namespace {

constexpr int kDestinations = 4;
constexpr std::size_t kBufferBytes = 256 * 1024;
constexpr unsigned kBuffersPerDestination = 4;

// Batch buffers as a streaming design hands them out: a few per
// destination, reused in turn; shipping a batch costs nothing here.
class ReusedBuffers {
 public:
  ReusedBuffers() : memory_(kDestinations * kBuffersPerDestination * kBufferBytes, Prefault::yes), next_(kDestinations) {}
  std::byte* open(std::size_t dest) {
    const std::size_t slot = dest * kBuffersPerDestination + next_[dest]++ % kBuffersPerDestination;
    return memory_.data() + slot * kBufferBytes + kBatchHeaderBytes;
  }
  void ship(std::size_t, std::size_t, bool) {}

 private:
  AlignedArray<std::byte> memory_;
  std::vector<std::size_t> next_;
};

template <class Body>
double best_rate(std::size_t rows, unsigned repeat, Body&& body) {
  return static_cast<double>(rows) / best_seconds(repeat, body);
}

struct AtWidth {
  double count = 0, partition = 0, consume = 0;
};

template <class RowT>
AtWidth measure_at(std::size_t rows, unsigned repeat) {
  RowWorkloadSpec spec;
  spec.rows = rows;
  spec.row_bytes = sizeof(RowT);
  AlignedArray<std::uint64_t> input(rows * sizeof(RowT) / 8, Prefault::yes);
  generate_rows(spec, 0, rows, input.data());
  const auto* bytes = reinterpret_cast<const std::byte*>(input.data());
  AtWidth r;

  std::vector<std::uint64_t> counts(kDestinations);
  const RowRouter route(kDestinations);
  r.count = best_rate(rows, repeat, [&] {
    std::fill(counts.begin(), counts.end(), 0);
    for (std::size_t i = 0; i < rows; ++i) ++counts[route(row_key(bytes + i * sizeof(RowT)))];
  });

  ReusedBuffers buffers;
  const std::size_t batch_rows = (kBufferBytes - kBatchHeaderBytes) / sizeof(RowT);
  r.partition = best_rate(rows, repeat, [&] {
    DirectPartitioner<FixedRowCopy<RowT>, ReusedBuffers> partitioner(kDestinations, batch_rows, {}, buffers);
    partitioner.start();
    partitioner.push(bytes, rows);
    partitioner.finish();
  });

  DigestConsumer consumer(kDestinations, 1, sizeof(RowT));
  r.consume = best_rate(rows, repeat, [&] {
    consumer.reset();
    for (std::size_t i = 0; i < rows; i += batch_rows) {
      consumer.consume(0, 1, bytes + i * sizeof(RowT), std::min(batch_rows, rows - i));
    }
  });
  if (consumer.received()[1].rows != rows) throw Error("calibration: the shuffle consumer lost rows");
  return r;
}

}  // namespace

ShuffleKernelRates measure_shuffle_kernels(std::size_t rows, unsigned repeat) {
  const AtWidth narrow = measure_at<Row<2>>(rows, repeat);
  const AtWidth wide = measure_at<Row<8>>(rows / 4, repeat);  // the same bytes
  return {{narrow.count, wide.count}, {narrow.partition, wide.partition}, {narrow.consume, wide.consume}};
}

}  // namespace hpcdb
