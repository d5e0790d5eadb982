#pragma once
// Sorting and merging of 64-bit values (compressed tuples sort by key first,
// since the key occupies the high bits).
//
// The AVX2 path sorts blocks of 32 values in registers (a sorting network on
// four registers' columns, a 4x4 transpose, then bitonic merges 4+4, 8+8 and
// 16+16), then merges runs with a bitonic network held in registers, 8
// values per step, to the very end (inputs read as if padded with the
// largest value, so no scalar tail). Signed 64-bit
// compares give unsigned order after the sign bit is flipped, so values are
// biased on the way in and unbiased by the last pass. The scalar path does
// the same job without SIMD; which one runs is decided once, from the CPU.
#include <cstddef>
#include <cstdint>

namespace hpcdb {

enum class SortPath { scalar, avx2 };

// A sorted run somewhere in memory.
template <class T>
struct SortedRun {
  const T* data = nullptr;
  std::size_t size = 0;
};

// AVX2 when this CPU has it, scalar otherwise.
SortPath default_sort_path();

// Sorts in[0, n) ascending into out[0, n). `in` is overwritten (used as
// work space), `scratch` holds n values; out may equal in.
void sort_run(std::uint64_t* in, std::size_t n, std::uint64_t* out, std::uint64_t* scratch,
              SortPath path = default_sort_path());

// Merges sorted a[0, na) and b[0, nb) into out[0, na + nb).
void merge_two(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb, std::uint64_t* out,
               SortPath path = default_sort_path());

}  // namespace hpcdb
