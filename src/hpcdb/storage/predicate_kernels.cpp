#include "hpcdb/storage/predicate_kernels.hpp"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <type_traits>

#include "hpcdb/core/cpu_dispatch.hpp"

namespace hpcdb {
namespace {

// For each 8-bit mask, the positions of its set bits (lowest first),
// padded: appending the rows of 8 tested values is one 16-byte store.
struct CompressTable {
  alignas(16) std::array<std::array<std::uint16_t, 8>, 256> offsets{};
};
constexpr CompressTable make_compress_table() {
  CompressTable t;
  for (unsigned m = 0; m < 256; ++m) {
    unsigned n = 0;
    for (unsigned j = 0; j < 8; ++j) {
      if ((m >> j) & 1) t.offsets[m][n++] = static_cast<std::uint16_t>(j);
    }
  }
  return t;
}
constexpr CompressTable kCompress = make_compress_table();

// Appends base + j for each set bit j of `mask` at list + n (writing 8
// entries); returns the new count.
HPCDB_TARGET_AVX2_POPCNT inline std::size_t append8(std::uint16_t* list, std::size_t n, unsigned mask, std::size_t base) {
  const __m128i offsets = _mm_load_si128(reinterpret_cast<const __m128i*>(kCompress.offsets[mask].data()));
  const __m128i rows = _mm_add_epi16(offsets, _mm_set1_epi16(static_cast<short>(base)));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(list + n), rows);
  return n + static_cast<std::size_t>(__builtin_popcount(mask));
}

HPCDB_TARGET_AVX2_POPCNT std::size_t list_passing_avx2(const std::uint8_t* pass, std::size_t rows, std::uint16_t* list) {
  std::size_t n = 0;
  std::size_t i = 0;
  for (; i + 32 <= rows; i += 32) {
    const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(pass + i));
    const auto mask = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(bytes, _mm256_setzero_si256())));
    if (mask == 0) continue;
    for (unsigned k = 0; k < 4; ++k) n = append8(list, n, (mask >> (8 * k)) & 0xff, i + 8 * k);
  }
  for (; i < rows; ++i) {
    list[n] = static_cast<std::uint16_t>(i);
    n += pass[i] != 0 ? 1 : 0;
  }
  return n;
}

// A set predicate over 4-byte values: 8 values at a time, each one's bit of
// the bitmap (read as 32-bit words) gathered where the value is in bounds.
HPCDB_TARGET_AVX2_POPCNT std::size_t list_in_set_i32_avx2(const std::int32_t* values, std::size_t rows, std::int32_t low,
                                                     std::uint32_t span, const std::uint64_t* bitmap,
                                                     std::uint16_t* list) {
  const auto* words = reinterpret_cast<const int*>(bitmap);
  const __m256i sign = _mm256_set1_epi32(static_cast<int>(0x80000000u));
  const __m256i low_v = _mm256_set1_epi32(low);
  const __m256i span_v = _mm256_xor_si256(_mm256_set1_epi32(static_cast<int>(span)), sign);
  const __m256i five_bits = _mm256_set1_epi32(31);
  const __m256i ones = _mm256_set1_epi32(1);
  std::size_t n = 0;
  std::size_t i = 0;
  for (; i + 8 <= rows; i += 8) {
    const __m256i d = _mm256_sub_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + i)), low_v);
    const __m256i outside = _mm256_cmpgt_epi32(_mm256_xor_si256(d, sign), span_v);
    const __m256i inside = _mm256_andnot_si256(outside, _mm256_set1_epi32(-1));
    const __m256i index = _mm256_and_si256(_mm256_srli_epi32(d, 5), inside);
    const __m256i word = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), words, index, inside, 4);
    const __m256i bit = _mm256_and_si256(_mm256_srlv_epi32(word, _mm256_and_si256(d, five_bits)), ones);
    const auto mask = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_slli_epi32(bit, 31))));
    n = append8(list, n, mask, i);
  }
  for (; i < rows; ++i) {
    const auto d = static_cast<std::uint32_t>(values[i]) - static_cast<std::uint32_t>(low);
    list[n] = static_cast<std::uint16_t>(i);
    n += d <= span && ((bitmap[d >> 6] >> (d & 63)) & 1) ? 1 : 0;
  }
  return n;
}

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

// Compiled for AVX2 and for the baseline (cpu_dispatch.hpp).
HPCDB_CLONES_AVX2 void and_range_clone(const std::uint8_t* v, std::size_t rows, std::int64_t low, std::int64_t high,
                                    std::uint8_t* pass) {
  and_range_typed(v, rows, low, high, pass);
}
HPCDB_CLONES_AVX2 void and_range_clone(const std::uint16_t* v, std::size_t rows, std::int64_t low, std::int64_t high,
                                     std::uint8_t* pass) {
  and_range_typed(v, rows, low, high, pass);
}
HPCDB_CLONES_AVX2 void and_range_clone(const std::int32_t* v, std::size_t rows, std::int64_t low, std::int64_t high,
                                     std::uint8_t* pass) {
  and_range_typed(v, rows, low, high, pass);
}
HPCDB_CLONES_AVX2 void and_range_clone(const std::int64_t* v, std::size_t rows, std::int64_t low, std::int64_t high,
                                     std::uint8_t* pass) {
  and_range_typed(v, rows, low, high, pass);
}

// Where the rows a filter tests come from: every row of the block in order,
// or a list of rows that the filter shrinks in place (it writes entry k only
// after reading entry k).
struct AllRows {
  std::size_t operator()(std::size_t i) const { return i; }
};
struct ListedRows {
  const std::uint16_t* rows;
  std::size_t operator()(std::size_t i) const { return rows[i]; }
};

// The first n rows of `source` whose value is in [low, high], into `out`.
template <class T, class Rows>
std::size_t filter_range(const T* values, std::int64_t low, std::int64_t high, Rows source, std::uint16_t* out,
                         std::size_t n) {
  using U = std::make_unsigned_t<T>;
  T from;
  U span;
  if (!clamp_range(low, high, from, span)) return 0;
  const auto base = static_cast<U>(from);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t row = source(i);
    out[kept] = static_cast<std::uint16_t>(row);
    kept += static_cast<U>(static_cast<U>(values[row]) - base) <= span ? 1 : 0;
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

// The first n rows of `source` whose value is in the set `p`, into `out`.
template <class T, class Rows>
std::size_t filter_set(const T* values, const Predicate& p, Rows source, std::uint16_t* out, std::size_t n) {
  std::size_t kept = 0;
  const std::uint64_t* bits = p.bits.data();
  const auto span = static_cast<std::uint64_t>(p.high - p.low);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t row = source(i);
    out[kept] = static_cast<std::uint16_t>(row);
    kept += set_member(bits, span, static_cast<std::uint64_t>(static_cast<std::int64_t>(values[row]) - p.low));
  }
  return kept;
}

template <class T, class Rows>
std::size_t filter(const T* values, const Predicate& p, Rows source, std::uint16_t* out, std::size_t n) {
  if (p.empty()) return 0;
  return p.kind == Predicate::Kind::range ? filter_range(values, p.low, p.high, source, out, n)
                                          : filter_set(values, p, source, out, n);
}

// f(values) with the bound column's values from row `first` on, typed;
// `otherwise` for a column of no numeric type.
template <class F, class R>
R with_values(const BoundPredicate& b, std::size_t first, F&& f, R otherwise) {
  switch (b.type) {
    case ColumnType::u8: return f(reinterpret_cast<const std::uint8_t*>(b.column) + first);
    case ColumnType::u16: return f(reinterpret_cast<const std::uint16_t*>(b.column) + first);
    case ColumnType::i32: return f(reinterpret_cast<const std::int32_t*>(b.column) + first);
    case ColumnType::i64: return f(reinterpret_cast<const std::int64_t*>(b.column) + first);
    case ColumnType::text: break;
  }
  return otherwise;
}

}  // namespace

void and_range(const BoundPredicate& b, std::size_t first, std::size_t rows, std::uint8_t* pass) {
  const Predicate& p = *b.predicate;
  const bool done = with_values(b, first, [&](const auto* values) {
    and_range_clone(values, rows, p.low, p.high, pass);
    return true;
  }, false);
  if (!done) std::memset(pass, 0, rows);
}

HPCDB_CLONES_POPCNT std::uint64_t count_bits(const std::uint64_t* words, std::size_t n) {
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < n; ++i) bits += static_cast<std::uint64_t>(__builtin_popcountll(words[i]));
  return bits;
}

std::size_t list_passing(const std::uint8_t* pass, std::size_t rows, std::uint16_t* list) {
  if (cpu_has_avx2()) return list_passing_avx2(pass, rows, list);
  std::size_t n = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    list[n] = static_cast<std::uint16_t>(i);
    n += pass[i] != 0 ? 1 : 0;
  }
  return n;
}

std::size_t list_passing_one(const BoundPredicate& b, std::size_t first, std::size_t rows, std::uint16_t* list) {
  const Predicate& p = *b.predicate;
  if (b.type == ColumnType::i32 && p.kind == Predicate::Kind::set && !p.empty() && cpu_has_avx2() &&
      p.low >= std::numeric_limits<std::int32_t>::min() && p.high <= std::numeric_limits<std::int32_t>::max()) {
    return list_in_set_i32_avx2(reinterpret_cast<const std::int32_t*>(b.column) + first, rows,
                                static_cast<std::int32_t>(p.low), static_cast<std::uint32_t>(p.high - p.low),
                                p.bits.data(), list);
  }
  return with_values(b, first, [&](const auto* values) { return filter(values, p, AllRows{}, list, rows); },
                     std::size_t{0});
}

std::size_t keep_passing(const BoundPredicate& b, std::size_t first, std::uint16_t* list, std::size_t n) {
  return with_values(b, first,
                     [&](const auto* values) { return filter(values, *b.predicate, ListedRows{list}, list, n); },
                     std::size_t{0});
}

}  // namespace hpcdb
