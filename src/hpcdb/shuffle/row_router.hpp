#pragma once
// Where a row goes: rank floor(h * ranks / 2^64) for h = key * 0x9E3779B97F4A7C15
// mod 2^64 (a multiplicative hash, spread over the ranks by the high bits,
// so no division). Every design routes through this one function.
#include <cstddef>
#include <cstdint>

namespace hpcdb {

inline constexpr std::uint64_t kRouteMultiplier = 0x9E3779B97F4A7C15ULL;

class RowRouter {
 public:
  explicit RowRouter(int ranks) : ranks_(static_cast<std::uint64_t>(ranks)) {}
  std::size_t operator()(std::uint64_t key) const {
    __extension__ typedef unsigned __int128 Wide;
    return static_cast<std::size_t>((static_cast<Wide>(key * kRouteMultiplier) * ranks_) >> 64);
  }

 private:
  std::uint64_t ranks_;
};

}  // namespace hpcdb
