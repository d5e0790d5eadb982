#pragma once
#include <bit>
#include <cstdint>

namespace hpcdb {

// Number of bits needed to represent `value` (0 for 0).
constexpr unsigned bit_width_of(std::uint64_t value) { return static_cast<unsigned>(std::bit_width(value)); }

constexpr std::uint64_t low_mask(unsigned bits) { return bits >= 64 ? ~0ULL : ((1ULL << bits) - 1); }

constexpr std::uint64_t next_power_of_two(std::uint64_t value) { return value <= 1 ? 1 : std::bit_ceil(value); }

constexpr unsigned ceil_log2(std::uint64_t value) { return value <= 1 ? 0 : bit_width_of(value - 1); }

}  // namespace hpcdb
