#include "hpcdb/txn/txn_metrics.hpp"

#include <vector>

namespace hpcdb {
namespace {

template <class Counters>
void reduce_counters(MPI_Comm comm, int root, const Counters& mine, Counters& all) {
  constexpr int words = sizeof(Counters) / sizeof(std::uint64_t);
  static_assert(sizeof(Counters) == words * sizeof(std::uint64_t));
  MPI_Reduce(&mine, &all, words, MPI_UINT64_T, MPI_SUM, root, comm);
}

LatencyHistogram reduce(MPI_Comm comm, int root, const LatencyHistogram& h) {
  const auto mine = h.to_words();
  std::array<std::uint64_t, LatencyHistogram::kWords> sum{};
  MPI_Reduce(mine.data(), sum.data(), LatencyHistogram::kWords, MPI_UINT64_T, MPI_SUM, root, comm);
  return LatencyHistogram::from_words(sum);
}

}  // namespace

TxnMetrics reduce_metrics(MPI_Comm comm, int root, const TxnMetrics& mine) {
  TxnMetrics all;
  reduce_counters(comm, root, mine.counters, all.counters);
  reduce_counters(comm, root, mine.types, all.types);
  MPI_Reduce(&mine.seconds, &all.seconds, 1, MPI_DOUBLE, MPI_MAX, root, comm);
  all.round_trip = reduce(comm, root, mine.round_trip);
  all.queueing = reduce(comm, root, mine.queueing);
  all.service = reduce(comm, root, mine.service);
  all.vote = reduce(comm, root, mine.vote);
  all.transaction = reduce(comm, root, mine.transaction);
  for (int t = 0; t < kMetricTypes; ++t) {
    all.type_latency[static_cast<std::size_t>(t)] = reduce(comm, root, mine.type_latency[static_cast<std::size_t>(t)]);
  }
  all.ping_local = reduce(comm, root, mine.ping_local);
  all.ping_remote = reduce(comm, root, mine.ping_remote);
  return all;
}

}  // namespace hpcdb
