#include "hpcdb/model/network_calibration.hpp"

#include <algorithm>
#include <cstring>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/statistics.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/join/receive_windows.hpp"
#include "hpcdb/model/best_time.hpp"
#include "hpcdb/net/bench/layer_benchmarks.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/net/messaging/message_header.hpp"
#include "hpcdb/net/node_shared_arena.hpp"
#include "hpcdb/net/one_sided_writer.hpp"
#include "hpcdb/net/rma_window.hpp"

namespace hpcdb {

void measure_put_rates(const Cluster& cluster, unsigned repeat, Calibration& c) {
  if (cluster.size() < 2) return;
  const std::size_t bytes = 64u << 20, chunk = 64u << 10;
  NodeSharedArena arena(cluster, bytes);
  AlignedArray<std::byte> source(bytes);
  {
    RmaWindow window(arena.segment(cluster.node_rank()), bytes, cluster.world());
    OneSidedWriter writer(window.handle());
    if (cluster.rank() == 0) {
      c.put_bandwidth = bytes / best_seconds(repeat, [&] {
        MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        for (std::size_t off = 0, k = 0; off < bytes; off += chunk, ++k) {
          writer.wait(requests[k % 2]);
          requests[k % 2] = writer.put(source.data() + off, chunk, 1, off);
        }
        writer.wait(requests[0]);
        writer.wait(requests[1]);
        MPI_Win_flush(1, window.handle());
      });
      c.put_latency = best_seconds(repeat * 100, [&] {
        MPI_Put(source.data(), 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, window.handle());
        MPI_Win_flush(1, window.handle());
      });
    }
  }
  const int peer_node_rank = cluster.node_rank_of(1);
  if (cluster.rank() == 0 && peer_node_rank >= 0) {
    std::byte* peer = arena.segment(peer_node_rank);
    c.shared_memory_bandwidth = bytes / best_seconds(repeat, [&] { std::memcpy(peer, source.data(), bytes); });
  }
  MPI_Barrier(cluster.world());
  double values[3] = {c.put_bandwidth, c.put_latency, c.shared_memory_bandwidth};
  MPI_Bcast(values, 3, MPI_DOUBLE, 0, cluster.world());
  c.put_bandwidth = values[0];
  c.put_latency = values[1];
  c.shared_memory_bandwidth = values[2];
}

double concurrent_put_bandwidth(const Cluster& cluster, unsigned repeat) {
  const std::size_t chunk = 64u << 10;
  const auto ranks = static_cast<std::size_t>(cluster.size());
  const std::size_t slice = std::max<std::size_t>(chunk, (64u << 20) / ranks / chunk * chunk);
  NodeSharedArena arena(cluster, slice * ranks);
  AlignedArray<std::byte> source(slice);
  std::vector<int> targets;
  for (int r = 1; r < cluster.size(); ++r) {
    const int t = (cluster.rank() + r) % cluster.size();
    if (cluster.node_rank_of(t) < 0) targets.push_back(t);
  }
  RmaWindow window(arena.segment(cluster.node_rank()), slice * ranks, cluster.world());
  OneSidedWriter writer(window.handle());
  double best = 0;
  for (unsigned k = 0; k < repeat; ++k) {
    MPI_Barrier(cluster.world());
    Stopwatch watch;
    MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    std::size_t sent = 0;
    for (std::size_t off = 0; off < slice; off += chunk) {
      for (int t : targets) {
        writer.wait(requests[sent % 2]);
        requests[sent % 2] = writer.put(source.data() + off, chunk, t, static_cast<std::size_t>(cluster.rank()) * slice + off);
        ++sent;
      }
    }
    writer.wait(requests[0]);
    writer.wait(requests[1]);
    for (int t : targets) MPI_Win_flush(t, window.handle());
    double rate = static_cast<double>(sent * chunk) / watch.seconds();
    double machine = 0;
    MPI_Allreduce(&rate, &machine, 1, MPI_DOUBLE, MPI_SUM, cluster.node());
    MPI_Allreduce(MPI_IN_PLACE, &machine, 1, MPI_DOUBLE, MPI_MIN, cluster.world());
    best = std::max(best, machine);
  }
  return best;
}

unsigned median_runs(unsigned repeat) { return std::max(repeat, 3u); }

double window_setup_seconds(const Cluster& cluster, unsigned repeat) {
  const std::size_t bytes = 8u << 20;
  ReceiveWindows windows(cluster, bytes, WindowWrites::stores_and_puts);
  std::vector<double> times;
  for (unsigned k = 0; k < median_runs(repeat); ++k) {
    MPI_Barrier(cluster.world());
    Stopwatch watch;
    windows.open(bytes);
    windows.close();
    times.push_back(allreduce(watch.seconds(), MPI_MAX, cluster.world()));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

ThresholdSweep measure_message_threshold(const Cluster& cluster, unsigned repeat) {
  ThresholdSweep sweep;
  MessageLayerConfig ring;
  ring.threads = 0;
  ring.threshold = ring.ring_bytes - sizeof(MessageHeader);
  MessageLayerConfig two_sided = ring;
  two_sided.threshold = 0;
  MessageLayer ring_layer(cluster, ring);
  MessageLayer two_sided_layer(cluster, two_sided);
  for (std::size_t s = 256; s <= (256u << 10); s *= 2) sweep.sizes.push_back(s);
  std::vector<std::vector<double>> ring_rates(sweep.sizes.size()), two_sided_rates(sweep.sizes.size());
  for (unsigned k = 0; k < median_runs(repeat); ++k) {
    for (std::size_t i = 0; i < sweep.sizes.size(); ++i) {
      const WindowPlan plan = window_plan(sweep.sizes[i], 64, 50, 16u << 20);
      ring_rates[i].push_back(layer_bandwidth(ring_layer, plan).bytes_per_second());
      two_sided_rates[i].push_back(layer_bandwidth(two_sided_layer, plan).bytes_per_second());
    }
  }
  for (std::size_t i = 0; i < sweep.sizes.size(); ++i) {
    sweep.ring.push_back(median(ring_rates[i]));
    sweep.two_sided.push_back(median(two_sided_rates[i]));
  }
  sweep.threshold = sweep.sizes.back();
  for (std::size_t i = sweep.sizes.size(); i-- > 0 && sweep.two_sided[i] > sweep.ring[i];) {
    sweep.threshold = i == 0 ? sweep.sizes[0] / 2 : sweep.sizes[i - 1];
  }
  double threshold = static_cast<double>(sweep.threshold);
  MPI_Bcast(&threshold, 1, MPI_DOUBLE, 0, cluster.world());
  sweep.threshold = static_cast<std::size_t>(threshold);
  return sweep;
}

}  // namespace hpcdb
