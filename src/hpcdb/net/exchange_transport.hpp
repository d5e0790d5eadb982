#pragma once
#include <string>

namespace hpcdb {

// How an exchange moves its data: one-sided puts into the receivers'
// windows, or two-sided messages.
enum class ExchangeTransport { put, messages };

// "puts" or "messages", as --exchange spells them.
inline std::string to_string(ExchangeTransport transport) {
  return transport == ExchangeTransport::put ? "puts" : "messages";
}

}  // namespace hpcdb
