#include "hpcdb/net/message_transport.hpp"

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/one_sided_transport.hpp"
#include "hpcdb/net/two_sided_transport.hpp"

namespace hpcdb {

std::string to_string(TransportKind kind) {
  switch (kind) {
    case TransportKind::one_sided:
      return "one-sided";
    case TransportKind::one_sided_rma:
      return "one-sided-rma";
    case TransportKind::two_sided:
      return "two-sided";
  }
  return "?";
}

TransportKind parse_transport_kind(const std::string& text) {
  if (text == "one-sided") return TransportKind::one_sided;
  if (text == "one-sided-rma") return TransportKind::one_sided_rma;
  if (text == "two-sided") return TransportKind::two_sided;
  throw UsageError("unknown transport '" + text + "' (use one-sided, one-sided-rma or two-sided)");
}

std::unique_ptr<MessageTransport> make_transport(TransportKind kind, const Cluster& cluster) {
  if (kind == TransportKind::two_sided) return std::make_unique<TwoSidedTransport>(cluster.world());
  return std::make_unique<OneSidedTransport>(cluster, kind == TransportKind::one_sided_rma);
}

}  // namespace hpcdb
