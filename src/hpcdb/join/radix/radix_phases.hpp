#pragma once
// The radix join's phases, named once: as its runs report them, as the model
// predicts them, and as a testing aid may name one to fail in.
#include <string>
#include <vector>

namespace hpcdb::radix_phase {

inline constexpr const char* histogram = "histogram";
inline constexpr const char* window_allocation = "window_allocation";
inline constexpr const char* network_partition = "network_partition";
inline constexpr const char* network_exchange = "network_exchange";  // scheduled exchange only
inline constexpr const char* network_wait = "network_wait";
inline constexpr const char* local_partition = "local_partition";
inline constexpr const char* build_probe = "build_probe";

// In order, for the streaming or the scheduled exchange.
inline std::vector<std::string> all(bool scheduled) {
  std::vector<std::string> phases = {histogram, window_allocation, network_partition};
  if (scheduled) phases.emplace_back(network_exchange);
  for (const char* p : {network_wait, local_partition, build_probe}) phases.emplace_back(p);
  return phases;
}

}  // namespace hpcdb::radix_phase
