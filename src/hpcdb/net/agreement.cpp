#include "hpcdb/net/agreement.hpp"

#include <climits>
#include <string>
#include <vector>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

void agree_on_failure(MPI_Comm comm, std::exception_ptr local_failure) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const int mine = local_failure ? rank : INT_MAX;
  int first = INT_MAX;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
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
  int length = static_cast<int>(message.size());
  MPI_Bcast(&kind, 1, MPI_INT, first, comm);
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  message.resize(static_cast<std::size_t>(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, first, comm);
  throw AgreedFailure(message, kind == 1 ? 2 : 1);
}

}  // namespace hpcdb
