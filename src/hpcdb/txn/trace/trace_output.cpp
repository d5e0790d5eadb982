#include "hpcdb/txn/trace/trace_output.hpp"

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/gather.hpp"
#include "hpcdb/txn/trace/lock_trace.hpp"
#include "hpcdb/txn/trace/trace_lock_ids.hpp"
#include "hpcdb/txn/trace/trace_workload.hpp"

namespace hpcdb {
namespace {

// home, type, lock count, then (lock, mode) per lock.
std::vector<std::uint64_t> encode(const std::vector<TracedTransaction>& traced) {
  std::vector<std::uint64_t> words;
  for (const TracedTransaction& t : traced) {
    words.insert(words.end(), {t.home, static_cast<std::uint64_t>(t.type), t.grants.size()});
    for (const GrantedLock& g : t.grants) words.insert(words.end(), {g.lock, static_cast<std::uint64_t>(index_of(g.mode))});
  }
  return words;
}

}  // namespace

void write_lock_traces(MPI_Comm comm, const std::string& dir, std::uint32_t partitions,
                       const std::vector<std::string>& type_names, const std::vector<TracedTransaction>& mine) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const auto words = gather_values<std::uint64_t>(encode(mine), 0, comm);
  if (rank != 0) return;
  std::vector<std::vector<TraceTransaction>> files(partitions);
  for (std::size_t i = 0; i < words.size();) {
    const auto home = static_cast<std::uint32_t>(words[i]);
    const auto type = static_cast<std::size_t>(words[i + 1]);
    const std::uint64_t count = words[i + 2];
    i += 3;
    if (home >= partitions || type >= type_names.size()) throw Error("malformed lock trace records");
    auto& file = files[home];
    TraceTransaction t{file.size() + 1, TraceWorkload::trace_name_of(type_names[type]), {}};
    for (std::uint64_t k = 0; k < count; ++k, i += 2) t.locks.push_back({words[i], static_cast<LockMode>(words[i + 1])});
    file.push_back(std::move(t));
  }
  const std::uint64_t locks_per_warehouse = to_trace_lock_ids(files);
  for (std::uint32_t p = 0; p < partitions; ++p) write_trace_file(trace_file_name(dir, p + 1), files[p]);
  write_locks_per_warehouse(dir, locks_per_warehouse);
}

}  // namespace hpcdb
