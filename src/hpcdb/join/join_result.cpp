#include "hpcdb/join/join_result.hpp"

#include <algorithm>

#include "hpcdb/net/collectives.hpp"

namespace hpcdb {

void summarize_over_ranks(const Cluster& cluster, const PhaseClock& clock, double total, JoinResult& result) {
  const MPI_Comm world = cluster.world();
  result.seconds = allreduce(total, MPI_MAX, world);
  result.matches = allreduce(result.matches, MPI_SUM, world);
  result.checksum = allreduce(result.checksum, MPI_SUM, world);
  result.bytes_sent = allreduce(result.bytes_sent, MPI_SUM, world);
  result.bytes_put = allreduce(result.bytes_put, MPI_SUM, world);
  result.puts = allreduce(result.puts, MPI_SUM, world);
  double mean_sum = 0;
  for (const auto& [name, seconds] : clock.phases()) {
    const Spread spread = spread_over_ranks(seconds, world);
    result.phases.push_back({name, spread.max, spread.mean});
    mean_sum += spread.mean;
  }
  result.imbalance = std::max(0.0, result.seconds - mean_sum);
}

}  // namespace hpcdb
