#include "hpcdb/net/agreement.hpp"

#include <climits>
#include <string>
#include <vector>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

// The lowest rank for which `has` holds, or INT_MAX when none.
int lowest_rank_with(bool has, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const int mine = has ? rank : INT_MAX;
  int first = INT_MAX;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  return first;
}

// `text` as rank `root` has it, at every rank.
std::string broadcast_text(std::string text, int root, MPI_Comm comm) {
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, root, comm);
  text.resize(static_cast<std::size_t>(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, root, comm);
  return text;
}

}  // namespace

std::string first_complaint(MPI_Comm comm, const std::string& mine) {
  const int first = lowest_rank_with(!mine.empty(), comm);
  if (first == INT_MAX) return {};
  return broadcast_text(mine, first, comm);
}

void agree_on_failure(MPI_Comm comm, std::exception_ptr local_failure) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const int first = lowest_rank_with(local_failure != nullptr, comm);
  if (first == INT_MAX) return;

  int kind = 0;  // 0 = Error, 1 = UsageError
  std::string message;
  if (rank == first) {
    try {
      std::rethrow_exception(local_failure);
    } catch (const UsageError& e) {
      kind = 1;
      message = e.what();
    } catch (const std::exception& e) {
      message = e.what();
    } catch (...) {
      message = "unknown error";
    }
  }
  MPI_Bcast(&kind, 1, MPI_INT, first, comm);
  throw AgreedFailure(broadcast_text(message, first, comm), kind == 1 ? 2 : 1);
}

}  // namespace hpcdb
