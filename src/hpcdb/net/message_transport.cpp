#include "hpcdb/net/message_transport.hpp"

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/one_sided_transport.hpp"
#include "hpcdb/net/two_sided_transport.hpp"

namespace hpcdb {

std::string to_string(TransportKind kind) { return kind == TransportKind::one_sided ? "one-sided" : "two-sided"; }

TransportKind parse_transport_kind(const std::string& text) {
  if (text == "one-sided") return TransportKind::one_sided;
  if (text == "two-sided") return TransportKind::two_sided;
  throw UsageError("unknown transport '" + text + "' (use one-sided or two-sided)");
}

std::unique_ptr<MessageTransport> make_transport(TransportKind kind, MPI_Comm comm) {
  if (kind == TransportKind::one_sided) return std::make_unique<OneSidedTransport>(comm);
  return std::make_unique<TwoSidedTransport>(comm);
}

}  // namespace hpcdb
