#pragma once
// Payloads of generated relations: `width` bytes per tuple, kept by the rank
// that holds the tuple, in fragment order. The bytes are a function of
// (seed, relation, rid) only, so any rank can check a payload it was sent.
#include <cstddef>
#include <cstdint>
#include <span>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/data/relation.hpp"

namespace hpcdb {

enum class RelationSide { inner, outer };

struct PayloadColumn {
  std::size_t width = 0;
  AlignedArray<std::byte> bytes;  // width bytes per tuple of the fragment
  std::span<const std::byte> of(std::size_t index) const { return {bytes.data() + index * width, width}; }
};

// The payload of tuple `rid` of one side.
void payload_of(std::uint64_t seed, RelationSide side, std::uint64_t rid, std::span<std::byte> out);

// The payloads of a fragment's tuples, from their rids.
PayloadColumn generate_payloads(const Relation& fragment, std::uint64_t seed, RelationSide side, std::size_t width);

}  // namespace hpcdb
