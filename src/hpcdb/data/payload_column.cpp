#include "hpcdb/data/payload_column.hpp"

#include <algorithm>
#include <cstring>

#include "hpcdb/data/counter_rng.hpp"

namespace hpcdb {
namespace {

constexpr std::uint64_t kInnerPayloadStream = 0x7061796C6F61645FULL;
constexpr std::uint64_t kOuterPayloadStream = 0x7061796C6F616453ULL;

}  // namespace

void payload_of(std::uint64_t seed, RelationSide side, std::uint64_t rid, std::span<std::byte> out) {
  CounterRng rng(seed, side == RelationSide::inner ? kInnerPayloadStream : kOuterPayloadStream, rid);
  for (std::size_t done = 0; done < out.size(); done += 8) {
    const std::uint64_t word = rng.next_u64();
    std::memcpy(out.data() + done, &word, std::min<std::size_t>(8, out.size() - done));
  }
}

PayloadColumn generate_payloads(const Relation& fragment, std::uint64_t seed, RelationSide side, std::size_t width) {
  PayloadColumn column;
  column.width = width;
  column.bytes = AlignedArray<std::byte>(std::max<std::size_t>(fragment.tuples.size() * width, 1));
  for (std::size_t i = 0; i < fragment.tuples.size(); ++i) {
    payload_of(seed, side, fragment.tuples[i].rid, {column.bytes.data() + i * width, width});
  }
  return column;
}

}  // namespace hpcdb
