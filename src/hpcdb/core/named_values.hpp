#pragma once
// Enumerations spelled on the command line: one table of (value, name) per
// enumeration gives both directions, and the error for an unknown name lists
// the choices.
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

template <class E, std::size_t N>
using NamedValues = std::array<std::pair<E, std::string_view>, N>;

template <class E, std::size_t N>
std::string name_of(E value, const NamedValues<E, N>& names) {
  for (const auto& [v, name] : names)
    if (v == value) return std::string(name);
  return "?";
}

// Throws UsageError "unknown <what> '<text>' (use a, b or c)".
template <class E, std::size_t N>
E value_named(const std::string& text, const NamedValues<E, N>& names, const std::string& what) {
  for (const auto& [v, name] : names)
    if (name == text) return v;
  std::string choices;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) choices += i + 1 == N ? " or " : ", ";
    choices += names[i].second;
  }
  throw UsageError("unknown " + what + " '" + text + "' (use " + choices + ")");
}

}  // namespace hpcdb
