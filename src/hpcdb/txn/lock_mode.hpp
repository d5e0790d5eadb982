#pragma once
// Multi-granularity lock modes: NL, IS, IX, S, SIX, X, with the standard
// compatibility matrix, the group mode of a set of granted modes, and the
// mode a lock converts to when its holder asks for another one.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace hpcdb {

enum class LockMode : std::uint8_t { NL = 0, IS = 1, IX = 2, S = 3, SIX = 4, X = 5 };
constexpr int kLockModes = 6;

constexpr int index_of(LockMode m) { return static_cast<int>(m); }

// compatible(requested, held): may `requested` be granted while `held` is.
constexpr bool compatible(LockMode requested, LockMode held) {
  constexpr bool table[kLockModes][kLockModes] = {
      //          NL     IS     IX     S      SIX    X
      /* NL  */ {true, true, true, true, true, true},
      /* IS  */ {true, true, true, true, true, false},
      /* IX  */ {true, true, true, false, false, false},
      /* S   */ {true, true, false, true, false, false},
      /* SIX */ {true, true, false, false, false, false},
      /* X   */ {true, false, false, false, false, false},
  };
  return table[index_of(requested)][index_of(held)];
}

// The mode of a granted group from its per-mode counts: the strongest mode
// present (IX and S never coexist in a granted group, so this is exact).
constexpr LockMode group_mode(const std::array<std::uint32_t, kLockModes>& granted) {
  for (int m = kLockModes - 1; m > 0; --m) {
    if (granted[static_cast<std::size_t>(m)] > 0) return static_cast<LockMode>(m);
  }
  return LockMode::NL;
}

// The weakest mode that covers both: what a holder of `held` owns after
// also asking for `requested` (e.g. IX and S give SIX).
constexpr LockMode supremum(LockMode held, LockMode requested) {
  if (held == requested) return held;
  if (held == LockMode::NL) return requested;
  if (requested == LockMode::NL) return held;
  if (held == LockMode::X || requested == LockMode::X) return LockMode::X;
  if (held == LockMode::SIX || requested == LockMode::SIX) return LockMode::SIX;
  const bool has_s = held == LockMode::S || requested == LockMode::S;
  const bool has_ix = held == LockMode::IX || requested == LockMode::IX;
  if (has_s && has_ix) return LockMode::SIX;
  if (has_s) return LockMode::S;   // S with IS
  return LockMode::IX;             // IX with IS
}

std::string to_string(LockMode mode);
std::optional<LockMode> parse_lock_mode(const std::string& text);

}  // namespace hpcdb
