#include "hpcdb/table/schema_agreement.hpp"

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/gather.hpp"

namespace hpcdb {
namespace {

std::string describe(const arrow::Schema& schema) {
  std::string text;
  for (const auto& field : schema.fields()) {
    if (!text.empty()) text += ", ";
    text += field->name() + ": " + field->type()->ToString();
  }
  return "(" + text + ")";
}

void require_same_schema(const Cluster& cluster, const arrow::Schema& schema, const std::string& label) {
  const std::vector<std::string> all = gather_texts(describe(schema), 0, cluster.world());
  std::string complaint;
  for (std::size_t r = 1; r < all.size(); ++r) {
    if (all[r] == all[0]) continue;
    complaint = "the " + label + " table's shares differ between ranks: rank 0 has " + all[0] + ", rank " +
                std::to_string(r) + " has " + all[r] + "; every rank's share must have the same columns and types";
    break;
  }
  const std::string agreed = first_complaint(cluster.world(), complaint);
  if (!agreed.empty()) throw UsageError(agreed);
}

// After require_same_schema: the nullable columns of any rank are nullable on all.
std::shared_ptr<arrow::Table> with_agreed_nullability(const Cluster& cluster, std::shared_ptr<arrow::Table> share) {
  const std::shared_ptr<arrow::Schema>& schema = share->schema();
  std::vector<std::uint8_t> nullable;
  for (const auto& field : schema->fields()) nullable.push_back(field->nullable() ? 1 : 0);
  MPI_Allreduce(MPI_IN_PLACE, nullable.data(), static_cast<int>(nullable.size()), MPI_UINT8_T, MPI_BOR,
                cluster.world());
  arrow::FieldVector fields = schema->fields();
  bool changed = false;
  for (std::size_t c = 0; c < fields.size(); ++c) {
    if (nullable[c] && !fields[c]->nullable()) {
      fields[c] = fields[c]->WithNullable(true);
      changed = true;
    }
  }
  if (!changed) return share;
  return arrow::Table::Make(arrow::schema(fields, schema->metadata()), share->columns(), share->num_rows());
}

}  // namespace

std::shared_ptr<arrow::Table> agreed_share(const Cluster& cluster, std::shared_ptr<arrow::Table> share,
                                           const std::string& label) {
  require_same_schema(cluster, *share->schema(), label);
  return with_agreed_nullability(cluster, std::move(share));
}

}  // namespace hpcdb
