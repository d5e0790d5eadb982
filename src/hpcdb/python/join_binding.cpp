// hpcdb._core.join: a join of two in-memory tables, each rank its shares.
#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <vector>

#include "hpcdb/api/table_join.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory_reuse.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/progress_guard.hpp"
#include "hpcdb/python/arrow_capsule.hpp"
#include "hpcdb/python/bindings.hpp"
#include "hpcdb/python/communicator.hpp"

namespace py = pybind11;

namespace hpcdb::python {
namespace {

struct JoinArguments {
  std::vector<std::string> left_on;
  std::vector<std::string> right_on;
  std::string how;
  std::string algorithm;
  std::string strategy;
  std::vector<std::string> columns;
  std::pair<std::string, std::string> suffixes;
  double progress_timeout = 10;
  unsigned testing_hash_bits = 64;
};

TableJoinRequest join_request(const JoinArguments& a) {
  if (a.left_on.empty() || a.left_on.size() != a.right_on.size()) {
    throw UsageError("left_on and right_on must name as many key columns, at least one");
  }
  if (a.suffixes.first == a.suffixes.second) throw UsageError("suffixes must differ: ('_l', '_r') for example");
  if (!(a.progress_timeout > 0 && a.progress_timeout <= 1e6)) {
    throw UsageError("progress_timeout must be more than 0 and at most 1000000 s");
  }
  if (a.testing_hash_bits < 1 || a.testing_hash_bits > 64) throw UsageError("testing_hash_bits must be 1 to 64");
  TableJoinRequest request;
  for (std::size_t i = 0; i < a.left_on.size(); ++i) request.on.on.emplace_back(a.left_on[i], a.right_on[i]);
  request.how = parse_join_how(a.how);
  if (a.algorithm != "auto" && a.algorithm != "radix" && a.algorithm != "sort-merge") {
    throw UsageError("algorithm must be 'auto', 'radix' or 'sort-merge', not '" + a.algorithm + "'");
  }
  request.operators.algorithm = a.algorithm == "sort-merge" ? JoinAlgorithm::sort_merge : JoinAlgorithm::radix;
  request.strategy = parse_table_join_strategy(a.strategy);
  request.columns = a.columns;
  request.suffixes = a.suffixes;
  request.testing_hash_bits = a.testing_hash_bits;
  request.guard.timeout_seconds = a.progress_timeout;
  request.guard.operation = "join";
  request.guard.timeout_option = "progress_timeout";
  return request;
}

py::dict plan_dict(const TableJoinPlan& plan) {
  py::dict d;
  d["strategy"] = to_string(plan.strategy);
  d["algorithm"] = to_string(plan.algorithm);
  d["key_encoding"] = plan.encoding == KeyEncoding::direct ? "direct" : "hashed";
  d["materialization"] = plan.materialization;
  d["build_side"] = plan.left_is_build ? "left" : "right";
  d["tuple_bytes"] = plan.tuple_bytes;
  d["left_row_bytes"] = plan.left_row_bytes;
  d["right_row_bytes"] = plan.right_row_bytes;
  d["estimate_bytes_per_rank"] = plan.estimate_bytes_per_rank;
  d["result_columns"] = plan.result_columns;
  return d;
}

py::dict join_stats(const TableJoinResult& r, int ranks) {
  py::dict d;
  d["ranks"] = ranks;
  d["plan"] = plan_dict(r.plan);
  d["left_rows"] = r.left_rows;
  d["right_rows"] = r.right_rows;
  d["result_rows"] = r.result_rows;
  d["pairs"] = r.pairs;
  d["hash_collisions"] = r.hash_collisions;
  d["keyless_rows"] = r.keyless_rows;
  d["join_bytes_sent"] = r.join_bytes_sent;
  d["materialize_bytes_sent"] = r.materialize_bytes_sent;
  d["broadcast_bytes_sent"] = r.broadcast_bytes_sent;
  d["peak_bytes_per_rank"] = r.peak_bytes_per_rank;
  d["phases"] = phases_list(r.phases);
  d["key_join_phases"] = phases_list(r.key_join.phases);
  d["seconds"] = r.seconds;
  return d;
}

py::tuple join(const Communicator& comm, const py::capsule& left, const py::capsule& right, const JoinArguments& a) {
  ArrowArrayStream* left_stream = stream_of_capsule(left);
  ArrowArrayStream* right_stream = stream_of_capsule(right);
  TableJoinResult result;
  {
    py::gil_scoped_release unlocked;
    const WatchedCall call(comm, "hpcdb.join");
    const FreedMemoryKept kept;  // for this call's later phases
    TableJoinRequest request;
    run_collectively(comm.cluster().world(), [&] {
      request = join_request(a);
      request.left.table = table_of_stream(left_stream);
      request.right.table = table_of_stream(right_stream);
    });
    const ProgressGuard guard(comm.cluster(), request.guard);
    result = run_table_join(comm.cluster(), request);
  }
  return py::make_tuple(capsule_of_table(result.table), join_stats(result, comm.size()));
}

}  // namespace

void bind_join(py::module_& m) {
  m.def(
      "join",
      [](const Communicator& comm, const py::capsule& left, const py::capsule& right, std::vector<std::string> left_on,
         std::vector<std::string> right_on, std::string how, std::string algorithm, std::string strategy,
         std::vector<std::string> columns, std::pair<std::string, std::string> suffixes, double progress_timeout,
         unsigned testing_hash_bits) {
        const JoinArguments arguments{std::move(left_on), std::move(right_on), std::move(how),
                                      std::move(algorithm), std::move(strategy), std::move(columns),
                                      std::move(suffixes), progress_timeout, testing_hash_bits};
        return join(comm, left, right, arguments);
      },
      py::arg("comm"), py::arg("left"), py::arg("right"), py::arg("left_on"), py::arg("right_on"), py::arg("how"),
      py::arg("algorithm"), py::arg("strategy"), py::arg("columns"), py::arg("suffixes"), py::arg("progress_timeout"),
      py::arg("testing_hash_bits"),
      "Collective: this rank's result rows (an Arrow stream capsule) and the run's report (a dict).");
}

}  // namespace hpcdb::python
