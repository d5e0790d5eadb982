#pragma once

namespace hpcdb {

// How an exchange moves its data: one-sided puts into the receivers'
// windows, or two-sided messages.
enum class ExchangeTransport { put, messages };

}  // namespace hpcdb
