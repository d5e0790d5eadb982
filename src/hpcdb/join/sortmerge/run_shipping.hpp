#pragma once
// The sort-merge join's sort phase: every run is sorted and at once written
// to its place in its target's window (stores into a co-located window, or
// sorted in place and put), while the next run is sorted. Rank i starts
// with the range of rank i+1 (shifted send order), so that the ranks do not
// all write to one rank at once.
#include <cstdint>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/join/worker_runner.hpp"
#include "hpcdb/join/receive_windows.hpp"
#include "hpcdb/join/sortmerge/run_formation.hpp"
#include "hpcdb/join/sortmerge/run_placement.hpp"
#include "hpcdb/kernels/sort_formats.hpp"
#include "hpcdb/join/sortmerge/sort_merge_plan.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct ShippedRuns {
  std::uint64_t runs = 0;
  std::uint64_t narrow_key_runs = 0;  // sorted through 32-bit sort keys
};

// The keys each range can hold, within [min_key, max_key]: what its runs
// need to be sorted through narrow keys.
std::vector<KeyField> range_key_fields(const KeyRanges& ranges, std::uint64_t min_key, std::uint64_t max_key);

template <class Format>
ShippedRuns sort_and_ship_runs(const Cluster& cluster, WorkerRunner& workers, const SortMergePlan& plan, Format format,
                               const FormedRuns& formed, const RunPlacement& placement, const MemoryRegion& staging,
                               const ReceiveWindows& windows) {
  using Stored = typename Format::Stored;
  struct RunTask {
    unsigned thread;
    int relation;
    std::size_t range;  // c: target rank * subranges + sub-range
    std::size_t index;  // run number within (thread, relation, range)
  };
  const std::size_t ranks = placement.ranks, subranges = placement.subranges;
  const unsigned threads = placement.threads;
  const std::size_t run_length = plan.run_length;
  const auto me = static_cast<std::size_t>(cluster.rank());
  std::vector<RunTask> tasks;
  for (std::size_t k = 0; k < ranks; ++k) {
    const std::size_t q = plan.config.send_order == SendOrder::shifted ? (me + 1 + k) % ranks : k;
    for (int relation = 0; relation < 2; ++relation) {
      for (unsigned t = 0; t < threads; ++t) {
        for (std::size_t c = q * subranges; c < (q + 1) * subranges; ++c) {
          const std::size_t runs = formed.chains[t][static_cast<std::size_t>(relation)].blocks[c].size();
          for (std::size_t b = 0; b < runs; ++b) tasks.push_back({t, relation, c, b});
        }
      }
    }
  }
  const std::vector<KeyField> range_keys = range_key_fields(formed.ranges, formed.bounds.min_key, formed.bounds.max_key);
  auto* blocks = static_cast<Stored*>(staging.data());
  OneSidedWriter* writer = windows.writer();
  TaskCounter task_counter(tasks.size());
  std::vector<std::vector<MPI_Request>> requests(threads);
  std::vector<std::uint64_t> narrow_key_runs(threads, 0);
  workers.run_workers(threads, [&](unsigned worker) {
    RunSortSpace<Stored> space(run_length);
    std::size_t task_index = 0;
    while (task_counter.next(task_index)) {
      const RunTask& task = tasks[task_index];
      const RunChains& chain = formed.chains[task.thread][static_cast<std::size_t>(task.relation)];
      const std::vector<std::uint32_t>& chain_blocks = chain.blocks[task.range];
      const std::size_t n = task.index + 1 == chain_blocks.size() ? chain.fill[task.range] : run_length;
      Stored* run_data = blocks + static_cast<std::size_t>(chain_blocks[task.index]) * run_length;
      const std::uint64_t slot = placement.slot_of(task.thread, task.relation, task.range, task.index, run_length);
      const std::size_t target = task.range / subranges;
      const std::uint64_t region = task.relation == 0 ? 0 : placement.outer_offsets[target];
      const WindowPlace place = windows.place(static_cast<int>(target), region + slot * sizeof(Stored));
      if (place.direct != nullptr) {
        narrow_key_runs[worker] += format.sort(run_data, n, reinterpret_cast<Stored*>(place.direct), space, range_keys[task.range]);
      } else {
        narrow_key_runs[worker] += format.sort(run_data, n, run_data, space, range_keys[task.range]);
        requests[worker].push_back(writer->put(run_data, n * sizeof(Stored), place.rank, place.offset));
      }
    }
    for (MPI_Request& request : requests[worker]) writer->wait(request);
  });
  ShippedRuns shipped;
  shipped.runs = tasks.size();
  for (std::uint64_t runs : narrow_key_runs) shipped.narrow_key_runs += runs;
  return shipped;
}

}  // namespace hpcdb
