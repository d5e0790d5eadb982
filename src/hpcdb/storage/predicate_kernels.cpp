#include "hpcdb/storage/predicate_kernels.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

namespace hpcdb {
namespace {

// The range [low, high] within T's values, as T's lowest value and the
// width above it in T's unsigned type; false when no value of T is in it.
template <class T>
bool clamp_range(std::int64_t low, std::int64_t high, T& from, std::make_unsigned_t<T>& span) {
  using U = std::make_unsigned_t<T>;
  constexpr auto tmin = static_cast<std::int64_t>(std::numeric_limits<T>::min());
  constexpr auto tmax = static_cast<std::int64_t>(std::numeric_limits<T>::max());
  if (high < low || high < tmin || low > tmax) return false;
  from = static_cast<T>(std::max(low, tmin));
  const auto to = static_cast<T>(std::min(high, tmax));
  span = static_cast<U>(static_cast<U>(to) - static_cast<U>(from));
  return true;
}

// One unsigned comparison per value: v - from <= span (modulo 2^bits).
template <class T>
[[gnu::always_inline]] inline void and_range_typed(const T* values, std::size_t rows, std::int64_t low,
                                                   std::int64_t high, std::uint8_t* pass) {
  using U = std::make_unsigned_t<T>;
  T from;
  U span;
  if (!clamp_range(low, high, from, span)) {
    std::memset(pass, 0, rows);
    return;
  }
  const auto base = static_cast<U>(from);
  for (std::size_t i = 0; i < rows; ++i) {
    const auto d = static_cast<U>(static_cast<U>(values[i]) - base);
    pass[i] &= static_cast<std::uint8_t>(d <= span);
  }
}

// Compiled for AVX2 and for the baseline; the loader picks one for this CPU.
#define HPCDB_SIMD_CLONES __attribute__((target_clones("avx2", "default")))
#define HPCDB_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))

HPCDB_SIMD_CLONES void and_range_u8(const std::uint8_t* v, std::size_t rows, std::int64_t low, std::int64_t high,
                                    std::uint8_t* pass) {
  and_range_typed(v, rows, low, high, pass);
}
HPCDB_SIMD_CLONES void and_range_u16(const std::uint16_t* v, std::size_t rows, std::int64_t low, std::int64_t high,
                                     std::uint8_t* pass) {
  and_range_typed(v, rows, low, high, pass);
}
HPCDB_SIMD_CLONES void and_range_i32(const std::int32_t* v, std::size_t rows, std::int64_t low, std::int64_t high,
                                     std::uint8_t* pass) {
  and_range_typed(v, rows, low, high, pass);
}
HPCDB_SIMD_CLONES void and_range_i64(const std::int64_t* v, std::size_t rows, std::int64_t low, std::int64_t high,
                                     std::uint8_t* pass) {
  and_range_typed(v, rows, low, high, pass);
}

template <class T>
std::size_t keep_in_range(const T* values, std::int64_t low, std::int64_t high, std::uint16_t* rows, std::size_t n) {
  using U = std::make_unsigned_t<T>;
  T from;
  U span;
  if (!clamp_range(low, high, from, span)) return 0;
  const auto base = static_cast<U>(from);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto d = static_cast<U>(static_cast<U>(values[rows[i]]) - base);
    rows[kept] = rows[i];
    kept += d <= span ? 1 : 0;
  }
  return kept;
}

// Whether `d` (a value less the set's low bound) is a member: a bit of the
// bitmap, read at offset 0 when d is out of bounds (no branch either way).
inline std::uint64_t set_member(const std::uint64_t* bits, std::uint64_t span, std::uint64_t d) {
  const std::uint64_t inside = d <= span ? 1 : 0;
  const std::uint64_t at = inside != 0 ? d : 0;
  return inside & (bits[at >> 6] >> (at & 63));
}

template <class T>
std::size_t keep_in_set(const T* values, const Predicate& p, std::uint16_t* rows, std::size_t n) {
  std::size_t kept = 0;
  const std::uint64_t* bits = p.bits.data();
  const auto span = static_cast<std::uint64_t>(p.high - p.low);
  for (std::size_t i = 0; i < n; ++i) {
    const auto d = static_cast<std::uint64_t>(static_cast<std::int64_t>(values[rows[i]]) - p.low);
    rows[kept] = rows[i];
    kept += set_member(bits, span, d);
  }
  return kept;
}

// keep_in_range and keep_in_set over rows 0 .. n-1, without reading a list.
template <class T>
std::size_t list_in_range(const T* values, std::int64_t low, std::int64_t high, std::uint16_t* rows, std::size_t n) {
  using U = std::make_unsigned_t<T>;
  T from;
  U span;
  if (!clamp_range(low, high, from, span)) return 0;
  const auto base = static_cast<U>(from);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i) {
    rows[kept] = static_cast<std::uint16_t>(i);
    kept += static_cast<U>(static_cast<U>(values[i]) - base) <= span ? 1 : 0;
  }
  return kept;
}

template <class T>
std::size_t list_in_set(const T* values, const Predicate& p, std::uint16_t* rows, std::size_t n) {
  std::size_t kept = 0;
  const std::uint64_t* bits = p.bits.data();
  const auto span = static_cast<std::uint64_t>(p.high - p.low);
  for (std::size_t i = 0; i < n; ++i) {
    const auto d = static_cast<std::uint64_t>(static_cast<std::int64_t>(values[i]) - p.low);
    rows[kept] = static_cast<std::uint16_t>(i);
    kept += set_member(bits, span, d);
  }
  return kept;
}

template <class T>
std::size_t list_typed(const T* values, const Predicate& p, std::uint16_t* rows, std::size_t n) {
  if (p.empty()) return 0;
  return p.kind == Predicate::Kind::range ? list_in_range(values, p.low, p.high, rows, n) : list_in_set(values, p, rows, n);
}

template <class T>
std::size_t keep_typed(const T* values, const Predicate& p, std::uint16_t* rows, std::size_t n) {
  if (p.empty()) return 0;
  return p.kind == Predicate::Kind::range ? keep_in_range(values, p.low, p.high, rows, n) : keep_in_set(values, p, rows, n);
}

}  // namespace

void and_range(const BoundPredicate& b, std::size_t first, std::size_t rows, std::uint8_t* pass) {
  const Predicate& p = *b.predicate;
  switch (b.type) {
    case ColumnType::u8: return and_range_u8(reinterpret_cast<const std::uint8_t*>(b.column) + first, rows, p.low, p.high, pass);
    case ColumnType::u16: return and_range_u16(reinterpret_cast<const std::uint16_t*>(b.column) + first, rows, p.low, p.high, pass);
    case ColumnType::i32: return and_range_i32(reinterpret_cast<const std::int32_t*>(b.column) + first, rows, p.low, p.high, pass);
    case ColumnType::i64: return and_range_i64(reinterpret_cast<const std::int64_t*>(b.column) + first, rows, p.low, p.high, pass);
    case ColumnType::text: break;
  }
  std::memset(pass, 0, rows);
}

HPCDB_POPCNT_CLONES std::uint64_t count_bits(const std::uint64_t* words, std::size_t n) {
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < n; ++i) bits += static_cast<std::uint64_t>(__builtin_popcountll(words[i]));
  return bits;
}

std::size_t list_passing(const std::uint8_t* pass, std::size_t rows, std::uint16_t* list) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    list[n] = static_cast<std::uint16_t>(i);
    n += pass[i] != 0 ? 1 : 0;
  }
  return n;
}

std::size_t list_passing_one(const BoundPredicate& b, std::size_t first, std::size_t rows, std::uint16_t* list) {
  switch (b.type) {
    case ColumnType::u8: return list_typed(reinterpret_cast<const std::uint8_t*>(b.column) + first, *b.predicate, list, rows);
    case ColumnType::u16: return list_typed(reinterpret_cast<const std::uint16_t*>(b.column) + first, *b.predicate, list, rows);
    case ColumnType::i32: return list_typed(reinterpret_cast<const std::int32_t*>(b.column) + first, *b.predicate, list, rows);
    case ColumnType::i64: return list_typed(reinterpret_cast<const std::int64_t*>(b.column) + first, *b.predicate, list, rows);
    case ColumnType::text: break;
  }
  return 0;
}

std::size_t keep_passing(const BoundPredicate& b, std::size_t first, std::uint16_t* list, std::size_t n) {
  switch (b.type) {
    case ColumnType::u8: return keep_typed(reinterpret_cast<const std::uint8_t*>(b.column) + first, *b.predicate, list, n);
    case ColumnType::u16: return keep_typed(reinterpret_cast<const std::uint16_t*>(b.column) + first, *b.predicate, list, n);
    case ColumnType::i32: return keep_typed(reinterpret_cast<const std::int32_t*>(b.column) + first, *b.predicate, list, n);
    case ColumnType::i64: return keep_typed(reinterpret_cast<const std::int64_t*>(b.column) + first, *b.predicate, list, n);
    case ColumnType::text: break;
  }
  return 0;
}

}  // namespace hpcdb
