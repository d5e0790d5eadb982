#include "hpcdb/net/message_transport.hpp"

#include "hpcdb/core/named_values.hpp"
#include "hpcdb/net/one_sided_transport.hpp"
#include "hpcdb/net/two_sided_transport.hpp"

namespace hpcdb {

namespace {
constexpr NamedValues<TransportKind, 3> kTransportNames{{{TransportKind::one_sided, "one-sided"},
                                                         {TransportKind::one_sided_rma, "one-sided-rma"},
                                                         {TransportKind::two_sided, "two-sided"}}};
}  // namespace

std::string to_string(TransportKind kind) { return name_of(kind, kTransportNames); }

TransportKind parse_transport_kind(const std::string& text) { return value_named(text, kTransportNames, "transport"); }

std::unique_ptr<MessageTransport> make_transport(TransportKind kind, const Cluster& cluster) {
  if (kind == TransportKind::two_sided) return std::make_unique<TwoSidedTransport>(cluster.world());
  return std::make_unique<OneSidedTransport>(cluster, kind == TransportKind::one_sided_rma);
}

}  // namespace hpcdb
