#include "hpcdb/net/all_to_all_schedule.hpp"

#include <random>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

ExchangeSchedule parse_exchange_schedule(const std::string& text) {
  if (text == "unsynchronized") return ExchangeSchedule::unsynchronized;
  if (text == "synchronized") return ExchangeSchedule::synchronized;
  if (text == "random") return ExchangeSchedule::random;
  throw UsageError("the schedule must be unsynchronized, synchronized or random, not '" + text + "'");
}

std::string to_string(ExchangeSchedule schedule) {
  switch (schedule) {
    case ExchangeSchedule::unsynchronized: return "unsynchronized";
    case ExchangeSchedule::synchronized: return "synchronized";
    case ExchangeSchedule::random: return "random";
  }
  return "unknown";
}

std::vector<int> ring_order(int me, int ranks) {
  std::vector<int> order;
  for (int k = 1; k < ranks; ++k) order.push_back((me + k) % ranks);
  return order;
}

std::vector<int> random_chunk_order(const std::vector<std::uint64_t>& chunks, std::uint64_t seed) {
  std::vector<int> owed;
  std::vector<std::uint64_t> left = chunks;
  for (std::size_t t = 0; t < chunks.size(); ++t) {
    if (chunks[t] > 0) owed.push_back(static_cast<int>(t));
  }
  std::mt19937_64 rng(seed);
  std::vector<int> order;
  while (!owed.empty()) {
    const std::size_t pick = std::uniform_int_distribution<std::size_t>(0, owed.size() - 1)(rng);
    const int target = owed[pick];
    order.push_back(target);
    if (--left[static_cast<std::size_t>(target)] == 0) {
      owed[pick] = owed.back();
      owed.pop_back();
    }
  }
  return order;
}

}  // namespace hpcdb
