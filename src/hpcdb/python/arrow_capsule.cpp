#include "hpcdb/python/arrow_capsule.hpp"

#include <arrow/c/bridge.h>

#include <cstring>

#include "hpcdb/core/error.hpp"
#include "hpcdb/table/arrow_status.hpp"

namespace hpcdb::python {
namespace {

constexpr const char* kStreamCapsule = "arrow_array_stream";

void release_stream_capsule(PyObject* capsule) {
  auto* stream = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule, kStreamCapsule));
  if (stream == nullptr) return;
  if (stream->release != nullptr) stream->release(stream);
  delete stream;
}

}  // namespace

ArrowArrayStream* stream_of_capsule(const pybind11::capsule& capsule) {
  if (capsule.name() == nullptr || std::strcmp(capsule.name(), kStreamCapsule) != 0) {
    throw UsageError("expected a PyCapsule named 'arrow_array_stream' (from __arrow_c_stream__)");
  }
  auto* stream = capsule.get_pointer<ArrowArrayStream>();
  if (stream == nullptr || stream->release == nullptr) throw UsageError("the Arrow stream was already consumed");
  return stream;
}

std::shared_ptr<arrow::Table> table_of_stream(ArrowArrayStream* stream) {
  auto reader = value_of(arrow::ImportRecordBatchReader(stream), "cannot import the Arrow stream");
  return value_of(reader->ToTable(), "cannot read the Arrow stream");
}

pybind11::capsule capsule_of_table(const std::shared_ptr<arrow::Table>& table) {
  auto stream = std::make_unique<ArrowArrayStream>();
  std::memset(stream.get(), 0, sizeof(ArrowArrayStream));
  auto reader = std::make_shared<arrow::TableBatchReader>(table);
  check_arrow(arrow::ExportRecordBatchReader(reader, stream.get()), "cannot export the result as an Arrow stream");
  PyObject* capsule = PyCapsule_New(stream.get(), kStreamCapsule, release_stream_capsule);
  if (capsule == nullptr) {
    stream->release(stream.get());
    throw pybind11::error_already_set();
  }
  stream.release();
  return pybind11::reinterpret_steal<pybind11::capsule>(capsule);
}

}  // namespace hpcdb::python
