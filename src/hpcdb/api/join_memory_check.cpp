#include "hpcdb/api/join_memory_check.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <optional>
#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {
namespace {

std::uint64_t binary_tuples_in(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return 0;
  return static_cast<std::uint64_t>(info.st_size) / sizeof(Tuple);
}

// What to change when the join does not fit: the options that drive its memory.
std::string memory_advice(const JoinRequest& request) {
  const JoinConfigs& c = request.configs;
  const bool radix = c.algorithm == JoinAlgorithm::radix;
  std::string sizes = request.from_files() ? "smaller inputs" : "smaller --inner/--outer";
  std::string advice = "use " + sizes;
  if (radix && c.radix.network_bits >= 20) {
    // From 2^20 partitions on, the per-partition buffers and plan outweigh the tuples.
    advice = fmt::format("--network-bits {} drives most of it (2^{} partitions, each with buffers per thread): use "
                         "fewer --network-bits, {}",
                         c.radix.network_bits, c.radix.network_bits, sizes);
  } else if (radix) {
    advice += c.radix.network_bits > 0 ? ", fewer --network-bits" : "";
    advice += ", a smaller --buffer-size or fewer --buffers-per-partition";
  }
  if (c.radix.threads > 1) advice += ", fewer --threads";
  if (request.verify) advice += ", no --verify";
  if (request.payload_width > 0) advice += ", fewer --payload-bytes";
  return advice + ", or spread the job over more nodes";
}

}  // namespace

JoinInputSizes input_sizes_of(const JoinRequest& request) {
  if (const auto* files = std::get_if<RelationFiles>(&request.inputs)) {
    return {binary_tuples_in(files->inner), binary_tuples_in(files->outer)};
  }
  const auto& workload = std::get<WorkloadSpec>(request.inputs);
  return {workload.inner_tuples, workload.outer_tuples};
}

std::uint64_t check_join_memory(const Cluster& cluster, const JoinRequest& request, JoinInputSizes sizes,
                                const MemoryEstimate& join, bool inputs_held) {
  const auto ranks = static_cast<std::uint64_t>(cluster.size());
  const auto node_size = static_cast<std::uint64_t>(cluster.node_size());
  const std::uint64_t input = (sizes.inner + sizes.outer) / ranks * sizeof(Tuple);
  const std::uint64_t join_per_rank = input + join.total() + kRankBaseBytes;
  std::uint64_t per_rank = join_per_rank;
  if (request.payload_width > 0) {
    // Payload columns, and the rows of the result (as many as S's tuples when every one matches).
    per_rank += (sizes.inner + sizes.outer) / ranks * request.payload_width +
                sizes.outer / ranks * (32 + 4 * request.payload_width);
  }
  if (request.verify) per_rank += 2 * input;
  const std::uint64_t held = inputs_held ? input * node_size : 0;
  if (const std::optional<std::string> shortfall = memory_shortfall(per_rank * node_size, available_memory_bytes() + held)) {
    throw UsageError(fmt::format("this join ({} rank{} x {}: inputs, receive windows, {} buffers{}) {}; {}",
                                 cluster.node_size(), cluster.node_size() == 1 ? "" : "s",
                                 format_bytes(static_cast<double>(per_rank)),
                                 request.configs.algorithm == JoinAlgorithm::radix ? "partitioning" : "sort and exchange",
                                 request.verify ? ", reference join" : "", *shortfall, memory_advice(request)));
  }
  // Inputs and receive windows live in node-shared memory, often a tmpfs
  // smaller than memory.
  const std::uint64_t shared_per_node = (input + join.node_shared()) * node_size;
  if (const std::optional<std::string> shortfall = shared_memory_shortfall(shared_per_node, kSharedMemoryDirectory, held)) {
    throw UsageError("this join (inputs and receive windows) " + *shortfall + ", or use smaller --inner/--outer");
  }
  return join_per_rank;
}

}  // namespace hpcdb
