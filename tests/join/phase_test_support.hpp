#pragma once
// Inputs and the expected result for the tests that run one join phase alone:
// random tuples with duplicate keys on both sides, joined by a plain hash map.
#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

#include "hpcdb/kernels/match_collector.hpp"
#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

struct PhaseCase {
  std::vector<Tuple> r, s;
};

inline PhaseCase random_phase_case(std::size_t nr, std::size_t ns, std::uint64_t key_range, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  PhaseCase c;
  for (std::size_t i = 0; i < nr; ++i) c.r.push_back({rng() % key_range, i});
  for (std::size_t i = 0; i < ns; ++i) c.s.push_back({rng() % key_range, 100000 + i});
  return c;
}

// Count and checksum of the equi-join, by a hash map.
inline MatchCollector reference_matches(const PhaseCase& c) {
  std::unordered_multimap<std::uint64_t, std::uint64_t> table;
  for (const Tuple& t : c.r) table.emplace(t.key, t.rid);
  MatchCollector out;
  for (const Tuple& t : c.s) {
    const auto [first, last] = table.equal_range(t.key);
    for (auto it = first; it != last; ++it) {
      ++out.count;
      out.checksum += pair_checksum(it->second, t.rid);
    }
  }
  return out;
}

}  // namespace hpcdb
