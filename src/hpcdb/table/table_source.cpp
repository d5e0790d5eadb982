#include "hpcdb/table/table_source.hpp"

#include <set>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/column_take.hpp"
#include "hpcdb/table/column_types.hpp"
#include "hpcdb/table/csv_source.hpp"
#include "hpcdb/table/ipc_source.hpp"
#include "hpcdb/table/parquet_source.hpp"

namespace hpcdb {

std::shared_ptr<arrow::Schema> project_schema(const arrow::Schema& schema, const std::vector<std::string>& columns,
                                              const std::string& label) {
  std::vector<std::shared_ptr<arrow::Field>> fields;
  if (columns.empty()) {
    fields = schema.fields();
  } else {
    std::set<std::string> seen;
    for (const std::string& name : columns) {
      if (!seen.insert(name).second) throw UsageError("column '" + name + "' of the " + label + " table is named twice");
      const int index = schema.GetFieldIndex(name);
      if (index < 0) {
        std::string have;
        for (const auto& field : schema.fields()) have += (have.empty() ? "" : ", ") + field->name();
        throw UsageError("the " + label + " table has no column '" + name + "' (it has " + have + ")");
      }
      fields.push_back(schema.field(index));
    }
  }
  for (auto& field : fields) {
    field = field->WithType(engine_type(field->type()));
    require_supported_column(*field, "the " + label + " table's");
  }
  return arrow::schema(fields);
}

namespace {

// UsageError if a column declared not null holds nulls: the result's
// schema keeps the declaration (a join's result columns are not null where
// their source is and no unmatched row is kept), and a Parquet writer
// refuses or mangles nulls in a required column.
void require_declared_nulls(const arrow::Field& field, std::int64_t nulls, const std::string& what) {
  if (field.nullable() || nulls == 0) return;
  throw UsageError(what + ": column '" + field.name() + "' is declared not null but holds " + std::to_string(nulls) +
                   " null" + (nulls == 1 ? "" : "s"));
}

}  // namespace

void require_declared_nulls(const arrow::Table& table, const std::string& label) {
  for (int c = 0; c < table.num_columns(); ++c) {
    require_declared_nulls(*table.schema()->field(c), table.column(c)->null_count(), "the " + label + " table");
  }
}

std::shared_ptr<arrow::RecordBatch> as_engine_batch(const std::shared_ptr<arrow::RecordBatch>& batch,
                                                    const std::shared_ptr<arrow::Schema>& projected, const std::string& what) {
  std::vector<std::shared_ptr<arrow::Array>> columns = batch->columns();
  for (int c = 0; c < batch->num_columns(); ++c) {
    const auto& type = projected->field(c)->type();
    if (!columns[static_cast<std::size_t>(c)]->type()->Equals(*type)) {
      columns[static_cast<std::size_t>(c)] = cast_array(columns[static_cast<std::size_t>(c)], type, what);
    }
    require_declared_nulls(*projected->field(c), columns[static_cast<std::size_t>(c)]->null_count(), what);
  }
  return arrow::RecordBatch::Make(projected, batch->num_rows(), columns);
}

std::shared_ptr<arrow::Table> as_engine_table(const std::shared_ptr<arrow::Table>& table, const std::string& label) {
  const auto engine_schema = project_schema(*table->schema(), {}, label);
  require_declared_nulls(*table, label);
  if (engine_schema->Equals(*table->schema(), false)) return table;
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  arrow::TableBatchReader reader(table);
  std::shared_ptr<arrow::RecordBatch> batch;
  while (true) {
    check_arrow(reader.ReadNext(&batch), "cannot read the " + label + " table");
    if (!batch) break;
    batches.push_back(as_engine_batch(batch, engine_schema, "the " + label + " table"));
  }
  return value_of(arrow::Table::FromRecordBatches(engine_schema, batches), "cannot assemble the " + label + " table");
}

std::unique_ptr<TableSource> open_table(const Cluster& cluster, const TableInput& input, const std::string& label) {
  std::vector<std::string> files;
  TableFormat format = TableFormat::parquet;
  run_collectively(cluster.world(), [&] {
    files = input_files(input.path);
    format = format_of_files(files, input.path);
  });
  switch (format) {
    case TableFormat::parquet: return open_parquet_source(cluster, files, input, label);
    case TableFormat::csv: return open_csv_source(cluster, files, input, label);
    case TableFormat::arrow_ipc: return open_ipc_source(cluster, files, input, label);
  }
  throw Error("unknown table format");
}

DistributedTable read_table(const Cluster& cluster, const TableInput& input, const std::string& label,
                            ProgressLine* progress) {
  return open_table(cluster, input, label)->read(progress);
}

}  // namespace hpcdb
