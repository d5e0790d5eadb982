#include "hpcdb/table/column_take.hpp"

#include <arrow/array/concatenate.h>
#include <arrow/buffer.h>
#include <arrow/compute/api_vector.h>
#include <arrow/compute/cast.h>
#include <arrow/compute/exec.h>
#include <arrow/compute/initialize.h>
#include <arrow/datum.h>

#include <mutex>

#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/decimal_narrowing.hpp"
#include "hpcdb/table/memory_pool.hpp"

namespace hpcdb {
namespace {

// Arrow's compute functions must be registered once per process.
void require_compute() {
  static std::once_flag once;
  std::call_once(once, [] { check_arrow(arrow::compute::Initialize(), "cannot start Arrow's compute functions"); });
}

std::shared_ptr<arrow::Array> index_array(const std::vector<std::uint64_t>& rows) {
  auto buffer = std::make_shared<arrow::Buffer>(reinterpret_cast<const std::uint8_t*>(rows.data()),
                                                static_cast<std::int64_t>(rows.size() * sizeof(std::uint64_t)));
  return std::make_shared<arrow::UInt64Array>(static_cast<std::int64_t>(rows.size()), buffer);
}

std::shared_ptr<arrow::Array> as_one_array(const arrow::Datum& datum, const std::shared_ptr<arrow::DataType>& type) {
  if (datum.is_array()) return datum.make_array();
  const auto& chunks = datum.chunked_array()->chunks();
  if (chunks.size() == 1) return chunks.front();
  return concatenate_arrays(chunks, type);
}

}  // namespace

std::shared_ptr<arrow::Array> take_rows(const std::shared_ptr<arrow::Array>& column, const std::vector<std::uint64_t>& rows) {
  require_compute();
  arrow::compute::ExecContext context(table_memory_pool());
  const arrow::Datum taken = value_of(arrow::compute::Take(arrow::Datum(column), arrow::Datum(index_array(rows)),
                                                                           arrow::compute::TakeOptions::Defaults(), &context),
                                      "cannot take rows of a column");
  return as_one_array(taken, column->type());
}

std::shared_ptr<arrow::Array> cast_array(const std::shared_ptr<arrow::Array>& array,
                                         const std::shared_ptr<arrow::DataType>& type, const std::string& what) {
  if (narrows_decimals(*array, *type)) return narrow_decimals(*array, type, what);
  require_compute();
  arrow::compute::ExecContext context(table_memory_pool());
  return value_of(arrow::compute::Cast(*array, type, arrow::compute::CastOptions::Safe(), &context), what + ": cannot read " + array->type()->ToString() + " as " + type->ToString());
}

std::shared_ptr<arrow::Array> concatenate_arrays(const std::vector<std::shared_ptr<arrow::Array>>& arrays,
                                                 const std::shared_ptr<arrow::DataType>& type) {
  if (arrays.empty()) return value_of(arrow::MakeEmptyArray(type, table_memory_pool()), "cannot make an empty array");
  if (arrays.size() == 1) return arrays.front();
  return value_of(arrow::Concatenate(arrays, table_memory_pool()), "cannot concatenate arrays");
}

}  // namespace hpcdb
