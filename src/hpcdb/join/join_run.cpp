#include "hpcdb/join/join_run.hpp"

#include <mpi.h>

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {

JoinRun::JoinRun(const Cluster& cluster, const Relation& inner, const Relation& outer, const InjectedFailure& failure)
    : cluster_(cluster), failure_(failure) {
  result_.inner_tuples = inner.global_size;
  result_.outer_tuples = outer.global_size;
  MPI_Barrier(cluster.world());
  start_ = MPI_Wtime();
}

void JoinRun::phase(const std::string& name) {
  fire_if_armed();  // the previous phase ran no workers
  clock_.start(name);
  armed_ = failure_.at_point(cluster_.rank(), name);
}

void JoinRun::fire_if_armed() {
  if (!armed_) return;
  armed_ = false;
  failure_.fire();
}

void JoinRun::take_matches(MatchCollector&& matches) {
  result_.matches = matches.count;
  result_.checksum = matches.checksum;
  result_.pairs = std::move(matches.pairs);
}

JoinResult JoinRun::finish() {
  fire_if_armed();
  clock_.stop();
  const double total = MPI_Wtime() - start_;
  const MPI_Comm world = cluster_.world();
  JoinResult& r = result_;
  r.seconds = allreduce(total, MPI_MAX, world);
  std::uint64_t sums[5] = {r.matches, r.checksum, r.bytes_sent, r.bytes_put, r.puts};
  MPI_Allreduce(MPI_IN_PLACE, sums, 5, MPI_UINT64_T, MPI_SUM, world);
  r.matches = sums[0];
  r.checksum = sums[1];
  r.bytes_sent = sums[2];
  r.bytes_put = sums[3];
  r.puts = sums[4];
  double mean_sum = 0;
  for (const auto& [name, seconds] : clock_.phases()) {
    const Spread spread = spread_over_ranks(seconds, world);
    r.phases.push_back({name, spread.max, spread.mean});
    mean_sum += spread.mean;
  }
  r.imbalance = std::max(0.0, r.seconds - mean_sum);
  return std::move(result_);
}

void sum_sharing_over_ranks(const Cluster& cluster, NodeSharing& sharing) {
  std::uint64_t sums[2] = {sharing.peer_chunks, sharing.peer_partitions};
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_UINT64_T, MPI_SUM, cluster.world());
  sharing.peer_chunks = sums[0];
  sharing.peer_partitions = sums[1];
}

}  // namespace hpcdb
