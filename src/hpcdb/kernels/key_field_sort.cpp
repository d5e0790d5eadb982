#include "hpcdb/kernels/key_field_sort.hpp"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/kernels/bitonic_network.hpp"

namespace hpcdb {
namespace {

// ---------------------------------------------------------------- AVX2
// Eight 32-bit values per register. The structure follows the 64-bit sort
// (sorted_runs.cpp): blocks sorted in registers, then bitonic merges of
// runs, to the end, with padding instead of a scalar tail.

constexpr std::uint32_t kTop = 0xFFFFFFFFu;  // the padding: no smaller than any value

HPCDB_TARGET_AVX2 inline __m256i load8(const std::uint32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
HPCDB_TARGET_AVX2 inline void store8(std::uint32_t* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }

// Eight values per register (the in-register block sort).
struct U32x8 {
  using Reg = __m256i;
  HPCDB_TARGET_AVX2 static void min_max(__m256i& a, __m256i& b) {
    const __m256i low = _mm256_min_epu32(a, b);
    b = _mm256_max_epu32(a, b);
    a = low;
  }
  template <bool DescendingA, bool DescendingB>
  HPCDB_TARGET_AVX2 static void clean_pair(__m256i& a, __m256i& b) {
    bitonic::clean_halves_and_quarters<U32x8, DescendingA, DescendingB>(a, b);
    // Distance 32 bits, per 128-bit half: e = a0 a2 b0 b2, o = a1 a3 b1 b3.
    const __m256 af = _mm256_castsi256_ps(a), bf = _mm256_castsi256_ps(b);
    __m256i e = _mm256_castps_si256(_mm256_shuffle_ps(af, bf, _MM_SHUFFLE(2, 0, 2, 0)));
    __m256i o = _mm256_castps_si256(_mm256_shuffle_ps(af, bf, _MM_SHUFFLE(3, 1, 3, 1)));
    min_max(e, o);
    a = DescendingA ? _mm256_unpacklo_epi32(o, e) : _mm256_unpacklo_epi32(e, o);
    b = DescendingB ? _mm256_unpackhi_epi32(o, e) : _mm256_unpackhi_epi32(e, o);
  }
};

template <int R>
HPCDB_TARGET_AVX2 inline void reverse_u32_values(const __m256i v[R], __m256i reversed[R]) {
  const __m256i order = _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0);
  for (int k = 0; k < R; ++k) reversed[k] = _mm256_permutevar8x32_epi32(v[R - 1 - k], order);
}

// Ascending runs x and y of 8R values -> x the smallest, y the largest.
template <int R>
HPCDB_TARGET_AVX2 inline void merge_ascending(__m256i x[R], __m256i y[R]) {
  __m256i d[R];
  reverse_u32_values<R>(y, d);
  bitonic::merge<U32x8, R>(x, d);
  reverse_u32_values<R>(d, y);
}

// Sorts the 64 values of v[0..7] into one ascending run (v[0] lowest): an
// 8-input sorting network (19 compare-exchanges) on the columns, an 8x8
// transpose, then in-register merges 8+8, 16+16 and 32+32.
HPCDB_TARGET_AVX2 inline void sort_64(__m256i v[8]) {
  static constexpr int kNetwork[19][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3}, {4, 6}, {5, 7}, {1, 2}, {5, 6},
                                          {0, 4}, {3, 7}, {1, 5}, {2, 6}, {1, 4}, {3, 6}, {2, 4}, {3, 5}, {3, 4}};
  for (const auto& pair : kNetwork) U32x8::min_max(v[pair[0]], v[pair[1]]);
  // Transpose: row j of the result is column j, now sorted.
  __m256i t[8], u[8];
  for (int k = 0; k < 8; k += 2) {
    t[k] = _mm256_unpacklo_epi32(v[k], v[k + 1]);
    t[k + 1] = _mm256_unpackhi_epi32(v[k], v[k + 1]);
  }
  for (int k = 0; k < 8; k += 4) {
    u[k] = _mm256_unpacklo_epi64(t[k], t[k + 2]);
    u[k + 1] = _mm256_unpackhi_epi64(t[k], t[k + 2]);
    u[k + 2] = _mm256_unpacklo_epi64(t[k + 1], t[k + 3]);
    u[k + 3] = _mm256_unpackhi_epi64(t[k + 1], t[k + 3]);
  }
  for (int k = 0; k < 4; ++k) {
    v[k] = _mm256_inserti128_si256(u[k], _mm256_castsi256_si128(u[k + 4]), 1);
    v[k + 4] = _mm256_inserti128_si256(u[k + 4], _mm256_extracti128_si256(u[k], 1), 0);
  }
  for (int k = 0; k < 8; k += 2) merge_ascending<1>(&v[k], &v[k + 1]);
  merge_ascending<2>(&v[0], &v[2]);
  merge_ascending<2>(&v[4], &v[6]);
  merge_ascending<4>(&v[0], &v[4]);
}

HPCDB_TARGET_AVX2 void sort_blocks_of_64(std::uint32_t* data, std::size_t blocks) {
  for (std::size_t k = 0; k < blocks; ++k) {
    std::uint32_t* p = data + 64 * k;
    __m256i v[8];
    for (int r = 0; r < 8; ++r) v[r] = load8(p + 8 * r);
    sort_64(v);
    for (int r = 0; r < 8; ++r) store8(p + 8 * r, v[r]);
  }
}

// The merge loop works on 128-bit registers (four values each), measured
// faster on Zen than 256-bit ones: its SIMD units are 128 bits wide, so a
// 256-bit shuffle takes two operations, and a bitonic step on 256-bit
// registers needs a lane-crossing stage that 128-bit ones do without.
struct U32x4 {
  using Reg = __m128i;
  HPCDB_TARGET_AVX2 static void min_max(__m128i& a, __m128i& b) {
    const __m128i low = _mm_min_epu32(a, b);
    b = _mm_max_epu32(a, b);
    a = low;
  }
  // Sorts the bitonic 4-vectors a and b, each ascending or descending:
  // distance 2, then 1, regrouped across the two registers.
  template <bool DescendingA, bool DescendingB>
  HPCDB_TARGET_AVX2 static void clean_pair(__m128i& a, __m128i& b) {
    __m128i even = _mm_unpacklo_epi64(a, b);  // a0 a1 b0 b1
    __m128i odd = _mm_unpackhi_epi64(a, b);   // a2 a3 b2 b3
    min_max(even, odd);
    a = DescendingA ? _mm_unpacklo_epi64(odd, even) : _mm_unpacklo_epi64(even, odd);
    b = DescendingB ? _mm_unpackhi_epi64(odd, even) : _mm_unpackhi_epi64(even, odd);
    const __m128 af = _mm_castsi128_ps(a), bf = _mm_castsi128_ps(b);
    __m128i e = _mm_castps_si128(_mm_shuffle_ps(af, bf, _MM_SHUFFLE(2, 0, 2, 0)));  // a0 a2 b0 b2
    __m128i o = _mm_castps_si128(_mm_shuffle_ps(af, bf, _MM_SHUFFLE(3, 1, 3, 1)));  // a1 a3 b1 b3
    min_max(e, o);
    a = DescendingA ? _mm_unpacklo_epi32(o, e) : _mm_unpacklo_epi32(e, o);
    b = DescendingB ? _mm_unpackhi_epi32(o, e) : _mm_unpackhi_epi32(e, o);
  }
};

// The merge loop's set (bitonic::merge_sorted): 16 values per step in four
// 128-bit registers sorted 16384-value runs about 10% faster than 8 or the
// 256-bit network (Zen), and 32 ran out of registers.
struct U32Merge {
  using Value = std::uint32_t;
  static constexpr int R = 4;
  static constexpr std::size_t kStep = 4 * R;
  static constexpr Value top = kTop;
  struct Block {
    __m128i v[R];
  };
  HPCDB_TARGET_AVX2 static Block load(const Value* p) {
    Block block;
    for (int k = 0; k < R; ++k) block.v[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 4 * k));
    return block;
  }
  HPCDB_TARGET_AVX2 static void store(Value* p, const Block& block) {
    for (int k = 0; k < R; ++k) _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 4 * k), block.v[k]);
  }
  HPCDB_TARGET_AVX2 static Block reversed(const Block& block) {
    Block r;
    for (int k = 0; k < R; ++k) r.v[k] = _mm_shuffle_epi32(block.v[R - 1 - k], 0x1B);
    return r;
  }
  HPCDB_TARGET_AVX2 static void merge(Block& x, Block& d) { bitonic::merge<U32x4, R>(x.v, d.v); }
  static bool head_le(Value a, Value b) { return a <= b; }
  static void copy(Value* out, const Value* in, std::size_t n) { std::memcpy(out, in, n * sizeof(Value)); }
};

// Sorts a[0, n), n a positive multiple of 64, with b[0, n) as work space;
// returns whichever holds the result.
HPCDB_TARGET_AVX2 std::uint32_t* sort_blocks_and_merge(std::uint32_t* a, std::uint32_t* b, std::size_t n) {
  sort_blocks_of_64(a, n / 64);
  std::uint32_t* src = a;
  std::uint32_t* dst = b;
  for (std::size_t width = 64; width < n; width *= 2) {
    for (std::size_t start = 0; start < n; start += 2 * width) {
      const std::size_t na = std::min(width, n - start);
      const std::size_t nb = start + width < n ? std::min(width, n - start - width) : 0;
      bitonic::merge_sorted<U32Merge>(src + start, na, src + start + na, nb, dst + start);
    }
    std::swap(src, dst);
  }
  return src;
}

HPCDB_TARGET_AVX2 std::uint32_t* sort_u32_avx2(std::uint32_t* a, std::uint32_t* b, std::size_t n) {
  if (n > 0 && n % 64 == 0) return sort_blocks_and_merge(a, b, n);  // the key-field sort's padded groups
  if (n < 128) {
    std::sort(a, a + n);
    return a;
  }
  const std::size_t body = n / 64 * 64;
  std::sort(a + body, a + n);  // the tail: one run of fewer than 64
  std::uint32_t* src = sort_blocks_and_merge(a, b, body);
  if (body == n) return src;
  std::uint32_t* dst = src == a ? b : a;
  bitonic::merge_sorted<U32Merge>(src, body, a + body, n - body, dst);
  return dst;
}

// The AVX2 key-field sort. The run is first split into up to 2^kSplitBits
// buckets by the top bits of the key field (a counting pass, then the sort
// keys are scattered to their buckets), so that the merge network sorts
// groups of about 64 values instead of the whole run: a 16384-value run
// with keys spread over its field needs merges only within the few groups
// larger than a block, instead of eight merge passes over the whole run. Consecutive buckets are grouped
// while they fit one 64-value block together (a larger bucket is a group
// of its own), and each group is padded to a multiple of 64 with the
// largest value, which sorts to its end.
constexpr unsigned kSplitBits = 10;
constexpr std::size_t kMinBucket = 16;  // fewer buckets for shorter runs
constexpr std::size_t kBuckets = std::size_t{1} << kSplitBits;
constexpr std::uint32_t kBlock = 64;
// A group's slots: its size padded to whole blocks.
constexpr std::uint32_t padded_size(std::uint32_t size) { return (size + kBlock - 1) / kBlock * kBlock; }
// The counting and scattering loops keep kLanes independent sets of
// counters, each for its own quarter of the run, stepped together: with one
// set, each iteration's counter load may depend on the previous store to
// the same small table, and the whole sort ran at 65 against 86 M values/s
// (Zen, 16384-value runs, 64 buckets).
constexpr std::size_t kLanes = 4;

HPCDB_TARGET_AVX2 bool sort_by_key_field_avx2(const std::uint64_t* in, std::size_t n, unsigned shift, std::uint64_t key_floor,
                                       unsigned key_bits, std::uint64_t* out, std::uint32_t* work) {
  const unsigned index_bits = bit_width_of(n - 1);
  unsigned split = std::min(kSplitBits, key_bits);
  while (split > 0 && (n >> split) < kMinBucket) --split;
  const unsigned bucket_shift = key_bits - split;  // offset >> bucket_shift: the bucket
  const std::size_t buckets = std::size_t{1} << split;
  const std::uint64_t bucket_mask = buckets - 1;
  // Lane l covers [lane_begin[l], lane_begin[l + 1]) of the run.
  std::array<std::size_t, kLanes + 1> lane_begin{};
  for (std::size_t l = 0; l <= kLanes; ++l) lane_begin[l] = n * l / kLanes;
  const std::size_t steps = lane_begin[1];  // the shortest lane's length (lanes differ by at most one)
  // count[l][b]: values of lane l in bucket b.
  std::array<std::array<std::uint32_t, kBuckets>, kLanes> count{};
  std::uint64_t offsets = 0;  // all offsets or-ed: a key below the floor wraps to a huge offset
  auto offset_of = [&](std::size_t i) { return (in[i] >> shift) - key_floor; };
  // Calls visit(lane, index) for every value, the lanes stepped together.
  auto for_each_in_lanes = [&](auto&& visit) {
    for (std::size_t k = 0; k < steps; ++k) {
      for (std::size_t l = 0; l < kLanes; ++l) visit(l, lane_begin[l] + k);
    }
    for (std::size_t l = 0; l < kLanes; ++l) {
      for (std::size_t i = lane_begin[l] + steps; i < lane_begin[l + 1]; ++i) visit(l, i);
    }
  };
  for_each_in_lanes([&](std::size_t l, std::size_t i) {
    const std::uint64_t offset = offset_of(i);
    offsets |= offset;
    ++count[l][(offset >> bucket_shift) & bucket_mask];
  });
  if (bit_width_of(offsets) > key_bits) return false;
  // Lay out the groups: group g holds values [group_begin[g], group_begin[g]
  // + group_size[g]) and is padded up to group_begin[g + 1]. Within it,
  // lane l's values of bucket b start at next[l][b].
  std::array<std::array<std::uint32_t, kBuckets>, kLanes> next{};
  std::array<std::uint32_t, kBuckets + 1> group_begin{};
  std::array<std::uint32_t, kBuckets> group_size{};
  std::size_t groups = 0;
  std::uint32_t at = 0;  // the next free slot
  for (std::size_t b = 0; b < buckets; ++b) {
    std::uint32_t size = 0;
    for (std::size_t l = 0; l < kLanes; ++l) size += count[l][b];
    if (size == 0) continue;
    const bool joins = groups > 0 && group_size[groups - 1] + size <= kBlock;
    if (!joins) {
      if (groups > 0) at = group_begin[groups - 1] + padded_size(group_size[groups - 1]);
      group_begin[groups] = at;
      group_size[groups] = 0;
      ++groups;
    }
    for (std::size_t l = 0; l < kLanes; ++l) {
      next[l][b] = at;
      at += count[l][b];
    }
    group_size[groups - 1] += size;
  }
  if (groups > 0) group_begin[groups] = group_begin[groups - 1] + padded_size(group_size[groups - 1]);
  std::uint32_t* keys = work;
  std::uint32_t* spare = work + key_field_sort_work_words(n) / 2;
  for_each_in_lanes([&](std::size_t l, std::size_t i) {
    const std::uint64_t offset = offset_of(i);
    keys[next[l][offset >> bucket_shift]++] = static_cast<std::uint32_t>((offset << index_bits) | i);
  });
  const auto index_mask = static_cast<std::uint32_t>(low_mask(index_bits));
  std::uint64_t* written = out;
  for (std::size_t g = 0; g < groups; ++g) {
    const std::uint32_t first = group_begin[g], size = group_size[g], padded = group_begin[g + 1] - first;
    std::fill(keys + first + size, keys + first + padded, kTop);
    const std::uint32_t* sorted = sort_u32_avx2(keys + first, spare + first, padded);
    for (std::uint32_t j = 0; j < size; ++j) {
      _mm_stream_si64(reinterpret_cast<long long*>(written + j), static_cast<long long>(in[sorted[j] & index_mask]));
    }
    written += size;
  }
  _mm_sfence();
  return true;
}

}  // namespace

bool fits_key_field_sort(unsigned key_bits, std::size_t n) {
  return n == 0 || key_bits + bit_width_of(n - 1) <= 32;
}

std::uint32_t* sort_u32(std::uint32_t* a, std::uint32_t* b, std::size_t n, SortPath path) {
  if (path == SortPath::avx2) return sort_u32_avx2(a, b, n);
  std::sort(a, a + n);
  return a;
}

std::size_t key_field_sort_work_words(std::size_t n) {
  // Two buffers, each with room for the groups' padding: two consecutive
  // groups hold more than one block together, so the padding is at most
  // the run's length plus a block.
  return 2 * (2 * n + kBlock);
}

bool sort_by_key_field(const std::uint64_t* in, std::size_t n, unsigned shift, std::uint64_t key_floor,
                       unsigned key_bits, std::uint64_t* out, std::uint32_t* work, SortPath path) {
  if (n == 0) return true;
  if (!fits_key_field_sort(key_bits, n)) return false;
  if (path == SortPath::avx2) return sort_by_key_field_avx2(in, n, shift, key_floor, key_bits, out, work);
  const unsigned index_bits = bit_width_of(n - 1);
  std::uint32_t* keys = work;
  std::uint64_t offsets = 0;  // all offsets or-ed: a key below the floor wraps to a huge offset
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t offset = (in[i] >> shift) - key_floor;
    offsets |= offset;
    keys[i] = static_cast<std::uint32_t>((offset << index_bits) | i);
  }
  if (bit_width_of(offsets) > key_bits) return false;
  std::sort(keys, keys + n);
  const auto index_mask = static_cast<std::uint32_t>(low_mask(index_bits));
  for (std::size_t j = 0; j < n; ++j) out[j] = in[keys[j] & index_mask];
  return true;
}

}  // namespace hpcdb
