// The same pieces sent to every rank: each rank's pieces arrive one after
// another in the room its receiver made, at the offsets returned (empty and
// odd-sized pieces included, a rank with none); a rank that cannot make its
// room fails every rank before any message is posted.
#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "hpcdb/table/rank_exchange.hpp"
#include "net/test_cluster.hpp"

namespace hpcdb::testing {
namespace {

// Rank r's pieces: sizes (rank 2 sends none), byte i of piece p is r*31 + p*7 + i.
std::vector<std::size_t> piece_sizes(int rank) {
  if (rank == 2) return {};
  return {static_cast<std::size_t>(5 + rank), 0, 4099, static_cast<std::size_t>(rank)};
}

std::vector<std::vector<std::byte>> pieces_of(int rank) {
  std::vector<std::vector<std::byte>> pieces;
  const std::vector<std::size_t> sizes = piece_sizes(rank);
  for (std::size_t p = 0; p < sizes.size(); ++p) {
    std::vector<std::byte> piece(sizes[p]);
    for (std::size_t i = 0; i < piece.size(); ++i) piece[i] = static_cast<std::byte>(rank * 31 + p * 7 + i);
    pieces.push_back(std::move(piece));
  }
  return pieces;
}

std::vector<std::span<const std::byte>> spans_of(const std::vector<std::vector<std::byte>>& pieces) {
  std::vector<std::span<const std::byte>> spans;
  for (const auto& piece : pieces) spans.emplace_back(piece);
  return spans;
}

TEST(AllgatherPieces, EveryOtherRanksPiecesArriveInOrderAtTheirOffsets) {
  const Cluster& c = cluster();
  const auto mine = pieces_of(c.rank());
  std::vector<std::byte> room;
  std::uint64_t asked = 0, bytes_sent = 0;
  const std::vector<std::uint64_t> offsets = allgather_pieces(
      c, spans_of(mine),
      [&](std::uint64_t bytes) {
        asked = bytes;
        room.assign(bytes, std::byte{0xee});
        return room.data();
      },
      bytes_sent);

  ASSERT_EQ(offsets.size(), static_cast<std::size_t>(c.size()) + 1);
  EXPECT_EQ(offsets.front(), 0u);
  EXPECT_EQ(offsets.back(), asked);
  std::uint64_t own_bytes = 0;
  for (const auto& piece : mine) own_bytes += piece.size();
  EXPECT_EQ(bytes_sent, own_bytes * static_cast<std::uint64_t>(c.size() - 1));
  for (int source = 0; source < c.size(); ++source) {
    const auto s = static_cast<std::size_t>(source);
    std::vector<std::byte> expected;
    if (source != c.rank()) {
      for (const auto& piece : pieces_of(source)) expected.insert(expected.end(), piece.begin(), piece.end());
    }
    const std::vector<std::byte> got(room.begin() + static_cast<std::ptrdiff_t>(offsets[s]),
                                     room.begin() + static_cast<std::ptrdiff_t>(offsets[s + 1]));
    EXPECT_EQ(got, expected) << "from rank " << source;
  }
}

TEST(AllgatherPieces, ARankThatCannotMakeRoomFailsEveryRankFirst) {
  const Cluster& c = cluster();
  const auto mine = pieces_of(c.rank());
  const int failing = c.size() - 1;
  std::uint64_t bytes_sent = 0;
  EXPECT_THROW(allgather_pieces(
                   c, spans_of(mine),
                   [&](std::uint64_t) -> std::byte* {
                     if (c.rank() == failing) throw std::runtime_error("no room");
                     return nullptr;  // never written: no rank posts a message
                   },
                   bytes_sent),
               std::exception);
  EXPECT_EQ(bytes_sent, 0u);
}

}  // namespace
}  // namespace hpcdb::testing
