#include "hpcdb/txn/lock_mode.hpp"

namespace hpcdb {

std::string to_string(LockMode mode) {
  constexpr const char* names[kLockModes] = {"NL", "IS", "IX", "S", "SIX", "X"};
  return names[index_of(mode)];
}

std::optional<LockMode> parse_lock_mode(const std::string& text) {
  for (int m = 0; m < kLockModes; ++m) {
    if (to_string(static_cast<LockMode>(m)) == text) return static_cast<LockMode>(m);
  }
  return std::nullopt;
}

}  // namespace hpcdb
