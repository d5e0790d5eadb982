#include "hpcdb/join/tables/table_join_strategy.hpp"

#include <fmt/format.h>

#include <limits>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {
namespace {

constexpr std::uint64_t kMostBroadcastRows = std::numeric_limits<std::uint32_t>::max() - 1;

std::string bytes_text(std::uint64_t bytes) { return format_bytes(static_cast<double>(bytes)); }

}  // namespace

TableJoinStrategy parse_table_join_strategy(const std::string& text) {
  if (text == "auto") return TableJoinStrategy::automatic;
  if (text == "partitioned") return TableJoinStrategy::partitioned;
  if (text == "broadcast") return TableJoinStrategy::broadcast;
  throw UsageError("a table join's strategy is auto, partitioned or broadcast, not '" + text + "'");
}

std::string to_string(TableJoinStrategy strategy) {
  switch (strategy) {
    case TableJoinStrategy::automatic: return "auto";
    case TableJoinStrategy::partitioned: return "partitioned";
    case TableJoinStrategy::broadcast: return "broadcast";
  }
  return "?";
}

StrategyChoice choose_table_join_strategy(TableJoinStrategy requested, const SideSizes& sizes, int ranks) {
  StrategyChoice choice;
  choice.broadcast_left = sizes.left_bytes < sizes.right_bytes ||
                          (sizes.left_bytes == sizes.right_bytes && sizes.left_rows <= sizes.right_rows);
  const std::uint64_t small = choice.broadcast_left ? sizes.left_bytes : sizes.right_bytes;
  const std::uint64_t large = choice.broadcast_left ? sizes.right_bytes : sizes.left_bytes;
  const std::uint64_t small_rows = choice.broadcast_left ? sizes.left_rows : sizes.right_rows;
  const std::string side = choice.broadcast_left ? "left" : "right";
  const auto others = static_cast<std::uint64_t>(ranks - 1);
  if (requested == TableJoinStrategy::partitioned) {
    choice.reason = "partitioned (asked for)";
    return choice;
  }
  if (small_rows > kMostBroadcastRows) {
    if (requested == TableJoinStrategy::broadcast) {
      throw UsageError(fmt::format("the smaller side has {} rows, too many to broadcast (at most {}); use --strategy "
                                   "partitioned or auto", small_rows, kMostBroadcastRows));
    }
    choice.strategy = TableJoinStrategy::partitioned;
    choice.reason = fmt::format("partitioned: the smaller side has too many rows to broadcast ({})", small_rows);
    return choice;
  }
  const bool cheaper = static_cast<double>(small) * static_cast<double>(others) <= static_cast<double>(large);
  if (requested == TableJoinStrategy::broadcast || (requested == TableJoinStrategy::automatic && cheaper)) {
    choice.strategy = TableJoinStrategy::broadcast;
    choice.reason = fmt::format(
        "broadcast: the {} side's columns ({} in all) go to every rank, where an index on its keys is probed by "
        "the other side's own rows ({}); every result column is taken where it is, and no other row moves",
        side, bytes_text(small), bytes_text(large),
        requested == TableJoinStrategy::broadcast ? "asked for"
                                                  : fmt::format("chosen: {} x {} other rank{} <= {}", bytes_text(small),
                                                                others, others == 1 ? "" : "s", bytes_text(large)));
    return choice;
  }
  choice.strategy = TableJoinStrategy::partitioned;
  choice.reason = fmt::format("partitioned: broadcasting the {} side ({} to each of {} other rank{}) would move "
                              "more than partitioning both ({} in the larger side)",
                              side, bytes_text(small), others, others == 1 ? "" : "s", bytes_text(large));
  return choice;
}

}  // namespace hpcdb
