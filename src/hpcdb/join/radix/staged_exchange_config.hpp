#pragma once
// The knobs of the radix join's scheduled network phase.
#include <cstddef>

#include "hpcdb/net/all_to_all_schedule.hpp"
#include "hpcdb/net/exchange_transport.hpp"

namespace hpcdb {

struct ScheduledExchangeConfig {
  ExchangeSchedule schedule = ExchangeSchedule::synchronized;
  ExchangeTransport transport = ExchangeTransport::put;
  std::size_t chunk_bytes = 1 << 20;  // per put or message
};

}  // namespace hpcdb
