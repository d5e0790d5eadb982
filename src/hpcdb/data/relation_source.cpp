#include "hpcdb/data/relation_source.hpp"

#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/data/node_shared_relation.hpp"
#include "hpcdb/data/relation_file.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {
namespace {

template <class Generate>
Relation generate_part(const Cluster& cluster, std::uint64_t global_size, unsigned threads, Generate generate) {
  const auto ranks = static_cast<std::size_t>(cluster.size());
  const auto rank = static_cast<std::size_t>(cluster.rank());
  const std::uint64_t first = split_point(global_size, ranks, rank);
  const std::uint64_t count = split_point(global_size, ranks, rank + 1) - first;
  Relation relation = node_shared_relation(cluster, count, global_size);
  run_on_threads(threads, [&](unsigned t) {
    const std::uint64_t begin = split_point(count, threads, t);
    const std::uint64_t end = split_point(count, threads, t + 1);
    generate(first + begin, end - begin, relation.tuples.data() + begin);
  });
  MPI_Barrier(cluster.node());  // co-located ranks may read the fragment from now on
  return relation;
}

// Collective. The text that at most one rank holds, on every rank.
std::optional<std::string> text_from_holder(const std::optional<std::string>& mine, MPI_Comm comm) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int holder = allreduce(mine ? rank : size, MPI_MIN, comm);
  if (holder == size) return std::nullopt;
  std::string text = mine.value_or("");
  auto length = static_cast<std::uint64_t>(text.size());
  MPI_Bcast(&length, 1, MPI_UINT64_T, holder, comm);
  text.resize(static_cast<std::size_t>(length));
  MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, holder, comm);
  return text;
}

}  // namespace

InputRelations generate_relations(const Cluster& cluster, const WorkloadSpec& spec, unsigned threads) {
  validate(spec);
  InputRelations inputs;
  inputs.inner = generate_part(cluster, spec.inner_tuples, threads, [&](std::uint64_t first, std::uint64_t n, Tuple* out) {
    generate_inner(spec, first, n, out);
  });
  inputs.outer = generate_part(cluster, spec.outer_tuples, threads, [&](std::uint64_t first, std::uint64_t n, Tuple* out) {
    generate_outer(spec, first, n, out);
  });
  return inputs;
}

InputRelations read_relations(const Cluster& cluster, const std::string& inner_path, const std::string& outer_path,
                              CsvHeader header) {
  InputRelations inputs;
  const auto rank = static_cast<unsigned>(cluster.rank());
  const auto ranks = static_cast<unsigned>(cluster.size());
  run_collectively(cluster.world(), [&] {
    RelationPart inner = read_relation_part(inner_path, rank, ranks, header);
    RelationPart outer = read_relation_part(outer_path, rank, ranks, header);
    inputs.inner.tuples = std::move(inner.tuples);
    inputs.outer.tuples = std::move(outer.tuples);
    inputs.inner_header = std::move(inner.skipped_header);
    inputs.outer_header = std::move(outer.skipped_header);
  });
  // The part that began with a file's first line may be any rank's (with more ranks than lines).
  inputs.inner_header = text_from_holder(inputs.inner_header, cluster.world());
  inputs.outer_header = text_from_holder(inputs.outer_header, cluster.world());
  inputs.inner.global_size = allreduce<std::uint64_t>(inputs.inner.tuples.size(), MPI_SUM, cluster.world());
  inputs.outer.global_size = allreduce<std::uint64_t>(inputs.outer.tuples.size(), MPI_SUM, cluster.world());
  inputs.inner = share_on_node(cluster, inputs.inner);
  inputs.outer = share_on_node(cluster, inputs.outer);
  return inputs;
}

}  // namespace hpcdb

namespace hpcdb {

static_assert(sizeof(Tuple) == 2 * sizeof(std::uint64_t));

void write_relation_file(SharedFileWriter& file, const Relation& relation) {
  file.write_two_columns(reinterpret_cast<const std::uint64_t*>(relation.tuples.data()), relation.tuples.size(),
                         "key,rid");
}

}  // namespace hpcdb
