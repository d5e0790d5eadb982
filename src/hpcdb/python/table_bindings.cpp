// hpcdb._core's table functions: read a table's share, write a directory of
// Parquet files, gather at one rank, shuffle by key columns.
#include <pybind11/stl.h>

#include <map>
#include <string>
#include <vector>

#include "hpcdb/api/table_shuffle.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory_reuse.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/progress_guard.hpp"
#include "hpcdb/python/arrow_capsule.hpp"
#include "hpcdb/python/bindings.hpp"
#include "hpcdb/python/communicator.hpp"
#include "hpcdb/table/distributed_table.hpp"
#include "hpcdb/table/parquet_directory_writer.hpp"
#include "hpcdb/table/progress_line.hpp"
#include "hpcdb/table/schema_agreement.hpp"
#include "hpcdb/table/table_gather.hpp"
#include "hpcdb/table/table_source.hpp"

namespace py = pybind11;

namespace hpcdb::python {
namespace {

// A capsule's table, imported on every rank with the failures agreed.
std::shared_ptr<arrow::Table> agreed_table(const Communicator& comm, ArrowArrayStream* stream) {
  std::shared_ptr<arrow::Table> table;
  run_collectively(comm.cluster().world(), [&] { table = table_of_stream(stream); });
  return table;
}

py::capsule read_table_share(const Communicator& comm, const std::string& path, const std::vector<std::string>& columns,
                             const std::map<std::string, std::string>& csv_types, const std::string& delimiter,
                             bool progress) {
  TableInput input;
  input.path = path;
  input.columns = columns;
  input.csv_types = csv_types;
  if (delimiter.size() != 1) throw UsageError("delimiter must be one character, not '" + delimiter + "'");
  input.csv_delimiter = delimiter[0];
  std::shared_ptr<arrow::Table> share;
  {
    py::gil_scoped_release unlocked;
    const WatchedCall call(comm, "hpcdb.read");
    const FreedMemoryKept kept;  // for this call's later phases
    ProgressLine line(progress);
    share = to_arrow_table(read_table(comm.cluster(), input, "input", &line));
  }
  return capsule_of_table(share);
}

py::dict write_parquet(const Communicator& comm, const py::capsule& capsule, const std::string& directory,
                       bool overwrite, bool progress) {
  ArrowArrayStream* stream = stream_of_capsule(capsule);
  WriteStats stats;
  {
    py::gil_scoped_release unlocked;
    const WatchedCall call(comm, "hpcdb.write_parquet");
    const FreedMemoryKept kept;  // for this call's later phases
    auto table = agreed_table(comm, stream);
    // One schema for every rank's file, nulls only where they may be.
    run_collectively(comm.cluster().world(), [&] { require_declared_nulls(*table, "written"); });
    table = agreed_share(comm.cluster(), table, "written");
    const TableOutput output{directory, overwrite};
    check_table_output(comm.cluster(), output, "directory");
    ProgressLine line(progress);
    stats = write_parquet_directory(comm.cluster(), from_arrow_table(table), output, &line);
  }
  py::dict d;
  d["file"] = stats.file;
  d["bytes"] = stats.bytes;
  return d;
}

py::object gather(const Communicator& comm, const py::capsule& capsule, int root) {
  ArrowArrayStream* stream = stream_of_capsule(capsule);
  std::shared_ptr<arrow::Table> all;
  {
    py::gil_scoped_release unlocked;
    const WatchedCall call(comm, "hpcdb.gather");
    const FreedMemoryKept kept;  // for this call's later phases
    all = gather_table(comm.cluster(), agreed_table(comm, stream), root);
  }
  if (!all) return py::none();
  return capsule_of_table(all);
}

py::dict shuffle_stats(const TableShuffleResult& r) {
  py::dict d;
  d["rows"] = r.rows;
  d["rows_moved"] = r.rows_moved;
  d["bytes_sent"] = r.bytes_sent;
  d["min_rank_rows"] = r.min_rank_rows;
  d["max_rank_rows"] = r.max_rank_rows;
  d["peak_bytes_per_rank"] = r.peak_bytes_per_rank;
  d["phases"] = phases_list(r.phases);
  d["seconds"] = r.seconds;
  return d;
}

py::tuple shuffle(const Communicator& comm, const py::capsule& capsule, const std::vector<std::string>& on,
                  double progress_timeout) {
  ArrowArrayStream* stream = stream_of_capsule(capsule);
  TableShuffleResult result;
  {
    py::gil_scoped_release unlocked;
    const WatchedCall call(comm, "hpcdb.shuffle");
    const FreedMemoryKept kept;  // for this call's later phases
    TableShuffleRequest request;
    request.table = agreed_table(comm, stream);
    request.on = on;
    ProgressGuardConfig watched;
    watched.timeout_seconds = progress_timeout;
    watched.operation = "shuffle";
    watched.timeout_option = "progress_timeout";
    const ProgressGuard guard(comm.cluster(), watched);
    result = run_table_shuffle(comm.cluster(), request);
  }
  return py::make_tuple(capsule_of_table(result.table), shuffle_stats(result));
}

}  // namespace

void bind_tables(py::module_& m) {
  m.def("read_table", &read_table_share, py::arg("comm"), py::arg("path"), py::arg("columns"), py::arg("csv_types"),
        py::arg("delimiter"), py::arg("progress"), "Collective: this rank's share of a table's files (a capsule).");
  m.def("write_parquet", &write_parquet, py::arg("comm"), py::arg("table"), py::arg("directory"),
        py::arg("overwrite"), py::arg("progress"),
        "Collective: every rank's share as DIRECTORY/part-NNNNN.parquet, complete or not at all.");
  m.def("gather", &gather, py::arg("comm"), py::arg("table"), py::arg("root"),
        "Collective: every rank's share at `root` (a capsule there, None elsewhere).");
  m.def("shuffle", &shuffle, py::arg("comm"), py::arg("table"), py::arg("on"), py::arg("progress_timeout"),
        "Collective: the rows of the keys this rank owns (a capsule) and the run's report.");
}

}  // namespace hpcdb::python
