#include "hpcdb/join/tables/result_rows.hpp"

#include <arrow/array/util.h>
#include <mpi.h>

#include "hpcdb/core/error.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/located_take.hpp"
#include "hpcdb/table/memory_pool.hpp"

namespace hpcdb {
namespace {

std::shared_ptr<arrow::Array> nulls_of(const std::shared_ptr<arrow::DataType>& type, std::int64_t n) {
  return value_of(arrow::MakeArrayOfNull(type, n, table_memory_pool()), "cannot make a column of nulls");
}

}  // namespace

std::vector<int> indices_of(const arrow::Schema& schema, const std::vector<std::string>& names) {
  std::vector<int> indices;
  for (const std::string& name : names) {
    const int index = schema.GetFieldIndex(name);
    if (index < 0) throw Error("column '" + name + "' was not read");
    indices.push_back(index);
  }
  return indices;
}

std::shared_ptr<arrow::RecordBatch> own_rows(const DistributedTable& table, JoinSide side,
                                             const std::vector<std::uint64_t>& rows, const TableJoinSpec& spec,
                                             const std::shared_ptr<arrow::Schema>& schema) {
  const std::vector<RowLocation> at = locate_rows(table, std::as_bytes(std::span<const std::uint64_t>(rows)), 0);
  TakeScratch scratch;
  std::vector<std::shared_ptr<arrow::Array>> columns;
  for (std::size_t c = 0; c < spec.columns.size(); ++c) {
    const ResultColumn& column = spec.columns[c];
    if (column.side != side) {
      columns.push_back(nulls_of(schema->field(static_cast<int>(c))->type(), static_cast<std::int64_t>(rows.size())));
      continue;
    }
    columns.push_back(take_located(ShareColumn(table, table.schema->GetFieldIndex(column.source)), at, scratch));
  }
  return arrow::RecordBatch::Make(schema, static_cast<std::int64_t>(rows.size()), columns);
}

void hand_over(ResultSink& sink, std::shared_ptr<arrow::RecordBatch> batch, double& sink_seconds) {
  const double start = MPI_Wtime();
  sink.consume(std::move(batch));
  sink_seconds += MPI_Wtime() - start;
}

void agree_on_sink(ResultSink& sink, double& sink_seconds) {
  const double start = MPI_Wtime();
  sink.agree();
  sink_seconds += MPI_Wtime() - start;
}

}  // namespace hpcdb
