#pragma once
// A table to be read by all ranks, each its share: opened collectively (the
// files found, their metadata read and agreed, the rows dealt), then read.
// Opening is cheap and tells what reading will bring (the schema after
// projection, the rows and roughly the bytes), so that a job can be refused
// before anything is read. Every failure (a missing or corrupt file, a
// missing column, a bad CSV line) reaches every rank as the same error.
#include <arrow/type.h>

#include <cstdint>
#include <memory>
#include <string>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/table/distributed_table.hpp"
#include "hpcdb/table/progress_line.hpp"
#include "hpcdb/table/table_input.hpp"

namespace hpcdb {

class TableSource {
 public:
  virtual ~TableSource() = default;
  virtual const std::shared_ptr<arrow::Schema>& schema() const = 0;  // after projection
  virtual std::uint64_t total_rows() const = 0;        // over all ranks (CSV: an estimate from the size)
  virtual std::uint64_t estimated_bytes() const = 0;   // in memory, over all ranks
  virtual TableFormat format() const = 0;
  virtual std::size_t files() const = 0;
  // Collective: this rank's share.
  virtual DistributedTable read(ProgressLine* progress) = 0;
};

// Collective. `label` names the table in messages ("left", "input").
std::unique_ptr<TableSource> open_table(const Cluster& cluster, const TableInput& input, const std::string& label);

// Collective: open_table(...)->read(progress).
DistributedTable read_table(const Cluster& cluster, const TableInput& input, const std::string& label,
                            ProgressLine* progress = nullptr);

// The projected schema: the named columns of `schema` in the order asked,
// each once (UsageError naming the table and the columns it has otherwise);
// every column when `columns` is empty. Types become engine types
// (column_types.hpp), each checked to be supported.
std::shared_ptr<arrow::Schema> project_schema(const arrow::Schema& schema, const std::vector<std::string>& columns,
                                              const std::string& label);

// A batch as read, with columns cast where the projected schema's engine
// types differ from the file's (string views to strings).
std::shared_ptr<arrow::RecordBatch> as_engine_batch(const std::shared_ptr<arrow::RecordBatch>& batch,
                                                    const std::shared_ptr<arrow::Schema>& projected, const std::string& what);

// UsageError naming the `label` table if a column it declares not null
// holds nulls.
void require_declared_nulls(const arrow::Table& table, const std::string& label);

// A share a caller holds in memory with the engine's types: every column
// checked to be supported (UsageError naming it), string views cast to
// strings; the table itself when nothing needs a cast (no copy).
std::shared_ptr<arrow::Table> as_engine_table(const std::shared_ptr<arrow::Table>& table, const std::string& label);

}  // namespace hpcdb
