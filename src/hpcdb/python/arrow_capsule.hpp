#pragma once
// Tables cross between Python and the engine through the Arrow C stream
// interface: a PyCapsule named "arrow_array_stream" holding an
// ArrowArrayStream, as __arrow_c_stream__ gives it (pyarrow, Polars, DuckDB).
// Both directions share the buffers; nothing is copied.
#include <arrow/c/abi.h>
#include <arrow/table.h>
#include <pybind11/pybind11.h>

#include <memory>

namespace hpcdb::python {

// The stream a capsule holds (with the GIL held).
ArrowArrayStream* stream_of_capsule(const pybind11::capsule& capsule);

// The table of a stream, which it consumes (needs no GIL; a producer that
// runs Python takes it itself).
std::shared_ptr<arrow::Table> table_of_stream(ArrowArrayStream* stream);

// A capsule holding a stream of `table`'s batches (released with the capsule
// unless a consumer has taken it).
pybind11::capsule capsule_of_table(const std::shared_ptr<arrow::Table>& table);

}  // namespace hpcdb::python
