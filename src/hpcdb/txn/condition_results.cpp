#include "hpcdb/txn/condition_results.hpp"

#include <algorithm>
#include <string>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

// name, checked, violations, first violation: one field per line, no newline inside.
std::string encode(const std::vector<ConditionResult>& results) {
  std::string out;
  for (const ConditionResult& r : results) {
    std::string first = r.first_violation;
    std::replace(first.begin(), first.end(), '\n', ' ');
    out += r.name + "\n" + std::to_string(r.checked) + "\n" + std::to_string(r.violations) + "\n" + first + "\n";
  }
  return out;
}

std::vector<ConditionResult> decode(const std::string& text) {
  std::vector<ConditionResult> out;
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    if (end == std::string::npos) throw Error("truncated consistency results");
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  if (lines.size() % 4 != 0) throw Error("malformed consistency results");
  for (std::size_t i = 0; i < lines.size(); i += 4) {
    out.push_back({lines[i], std::stoull(lines[i + 1]), std::stoull(lines[i + 2]), lines[i + 3]});
  }
  return out;
}

}  // namespace

std::vector<ConditionResult> merge_conditions(const std::vector<std::vector<ConditionResult>>& parts) {
  std::vector<ConditionResult> merged;
  for (const auto& part : parts) {
    for (const ConditionResult& r : part) {
      auto it = std::find_if(merged.begin(), merged.end(), [&](const ConditionResult& m) { return m.name == r.name; });
      if (it == merged.end()) {
        merged.push_back(r);
        continue;
      }
      it->checked += r.checked;
      it->violations += r.violations;
      if (it->first_violation.empty()) it->first_violation = r.first_violation;
    }
  }
  return merged;
}

std::vector<ConditionResult> gather_conditions(MPI_Comm comm, int root, const std::vector<ConditionResult>& mine) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::string text = encode(mine);
  const int length = static_cast<int>(text.size());
  std::vector<int> lengths(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, root, comm);
  int total = 0;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    offsets[r] = total;
    total += lengths[r];
  }
  std::string all(rank == root ? static_cast<std::size_t>(total) : 0, '\0');
  MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, root, comm);
  if (rank != root) return {};
  std::vector<std::vector<ConditionResult>> parts;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    parts.push_back(decode(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r]))));
  }
  return merge_conditions(parts);
}

}  // namespace hpcdb
