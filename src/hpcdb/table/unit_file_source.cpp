#include "hpcdb/table/unit_file_source.hpp"

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/table/rank_exchange.hpp"

namespace hpcdb {

void BatchAppender::operator()(const std::shared_ptr<arrow::RecordBatch>& batch, const std::string& what) {
  if (batch->num_rows() == 0) return;
  if (progress_) progress_->add(static_cast<std::uint64_t>(batch->num_rows()), batch_bytes(*batch));
  table_.batches.push_back(as_engine_batch(batch, table_.schema, what));
}

void UnitFileSource::open(const TableInput& input) {
  const int ranks = cluster_.size(), me = cluster_.rank();
  // Each described file as (file index, units, rows of each unit, projected bytes).
  std::vector<std::uint64_t> mine;
  run_collectively(cluster_.world(), [&] {
    file_schema_ = read_schema(files_.front());
    projected_ = project_schema(*file_schema_, input.columns, label_);
    for (std::size_t f = static_cast<std::size_t>(me); f < files_.size(); f += static_cast<std::size_t>(ranks)) {
      const FileUnits units = describe_file(files_[f]);
      mine.push_back(f);
      mine.push_back(units.unit_rows.size());
      mine.insert(mine.end(), units.unit_rows.begin(), units.unit_rows.end());
      mine.push_back(units.projected_bytes);
    }
  });
  const GatheredValues all = allgather_values(cluster_, mine);
  std::vector<std::vector<std::uint64_t>> rows_of(files_.size());
  for (std::size_t i = 0; i < all.values.size();) {
    const std::size_t f = all.values[i], units = all.values[i + 1];
    rows_of[f].assign(all.values.begin() + static_cast<std::ptrdiff_t>(i + 2),
                      all.values.begin() + static_cast<std::ptrdiff_t>(i + 2 + units));
    estimated_bytes_ += all.values[i + 2 + units];
    i += 3 + units;
  }
  dealt_ = deal_file_units(rows_of, ranks);
}

DistributedTable UnitFileSource::read(ProgressLine* progress) {
  DistributedTable table;
  table.schema = projected_;
  BatchAppender append(table, progress);
  run_collectively(cluster_.world(), [&] {
    for (std::size_t f = 0; f < files_.size(); ++f) {
      std::vector<int> units;
      for (std::size_t u = dealt_.first_unit[f]; u < dealt_.first_unit[f + 1]; ++u) {
        if (dealt_.rank[u] == cluster_.rank()) units.push_back(static_cast<int>(u - dealt_.first_unit[f]));
      }
      if (!units.empty()) read_units(files_[f], units, append);
    }
  });
  return table;
}

void UnitFileSource::require_first_schema(const std::string& path, const arrow::Schema& schema) const {
  if (schema.Equals(*file_schema_, false)) return;
  throw UsageError(display_name(format()) + " files of the " + label_ + " table differ in their schema: '" +
                   files_.front() + "' has " + file_schema_->ToString() + ", '" + path + "' has " + schema.ToString());
}

std::vector<int> UnitFileSource::projected_indices() const {
  std::vector<int> indices;
  for (const auto& field : projected_->fields()) indices.push_back(file_schema_->GetFieldIndex(field->name()));
  return indices;
}

}  // namespace hpcdb
