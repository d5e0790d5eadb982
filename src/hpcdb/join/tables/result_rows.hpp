#pragma once
// Pieces both strategies of a table join make their result with: the rows
// of one side's own share (unmatched rows of outer and anti joins, matched
// ones of semi joins) with the other side's columns null, and a batch
// handed to the result's sink with the time it took there.
#include <arrow/record_batch.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hpcdb/join/tables/table_join_spec.hpp"
#include "hpcdb/table/distributed_table.hpp"
#include "hpcdb/table/result_sink.hpp"

namespace hpcdb {

// The indices of the named columns of `schema` (Error for one not read).
std::vector<int> indices_of(const arrow::Schema& schema, const std::vector<std::string>& names);

// `rows` (local row numbers) of `table`, one side's share, as result rows.
std::shared_ptr<arrow::RecordBatch> own_rows(const DistributedTable& table, JoinSide side,
                                             const std::vector<std::uint64_t>& rows, const TableJoinSpec& spec,
                                             const std::shared_ptr<arrow::Schema>& schema);

// Hands a batch to the sink (this rank's), adding the time it takes there.
void hand_over(ResultSink& sink, std::shared_ptr<arrow::RecordBatch> batch, double& sink_seconds);

// Collective: the sink's failures agreed (ResultSink::agree), the time
// added likewise.
void agree_on_sink(ResultSink& sink, double& sink_seconds);

}  // namespace hpcdb
