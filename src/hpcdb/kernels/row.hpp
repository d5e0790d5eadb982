#pragma once
// Rows of a fixed width that is a multiple of 8 bytes: a 64-bit key in the
// first word, payload words after it. Row<2> is the 16-byte <key, payload>
// tuple; wider rows carry more payload. Rows of 16, 32 or 64 bytes tile a
// cache line, so software write-combining (write_combiner.hpp) can
// partition them.
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace hpcdb {

template <std::size_t Words>
struct Row {
  static_assert(Words >= 1);
  std::uint64_t word[Words];
  std::uint64_t key() const { return word[0]; }
};
static_assert(sizeof(Row<2>) == 16 && std::is_trivially_copyable_v<Row<2>>);

// The word of a row that can hold a write-combining line's fill count.
template <std::size_t Words>
std::uint64_t& counter_word(Row<Words>& row) {
  return row.word[Words - 1];
}

// The key of a row of any width, read from its first word.
inline std::uint64_t row_key(const std::byte* row) {
  return *reinterpret_cast<const std::uint64_t*>(row);
}

}  // namespace hpcdb
