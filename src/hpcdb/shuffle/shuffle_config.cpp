#include "hpcdb/shuffle/shuffle_config.hpp"

#include <fmt/format.h>

#include "hpcdb/core/error.hpp"
#include "hpcdb/kernels/write_combiner.hpp"

namespace hpcdb {

namespace {

bool tiles_cache_line(std::uint32_t row_bytes) { return kCacheLine % row_bytes == 0; }

std::size_t header_bytes(const ShuffleConfig& config) {
  return kBatchHeaderBytes + (config.design == ShuffleDesign::message_layer ? kMessageLayerHeadroom : 0);
}

}  // namespace

std::size_t rows_per_batch(const ShuffleConfig& config) {
  if (config.buffer_bytes <= header_bytes(config) || config.row_bytes == 0) return 0;
  const std::size_t payload = config.buffer_bytes - header_bytes(config);
  if (tiles_cache_line(config.row_bytes)) return payload / kCacheLine * (kCacheLine / config.row_bytes);
  return payload / config.row_bytes;
}

void validate(const ShuffleConfig& config) {
  if (config.row_bytes < 16 || config.row_bytes > 4096 || config.row_bytes % 8 != 0) {
    throw UsageError(fmt::format("--width must be a multiple of 8 bytes between 16 and 4096, not {}", config.row_bytes));
  }
  if (config.buffer_bytes % kCacheLine != 0) {
    throw UsageError(fmt::format("--buffer-size must be a multiple of 64 bytes, not {}", config.buffer_bytes));
  }
  if (config.buffer_bytes > (std::size_t{1} << 30)) {
    throw UsageError(fmt::format("--buffer-size must be at most 1 GiB, not {}", config.buffer_bytes));
  }
  if (rows_per_batch(config) == 0) {
    const std::size_t line_rows = tiles_cache_line(config.row_bytes) ? kCacheLine : config.row_bytes;
    throw UsageError(fmt::format(
        "--buffer-size {} B holds no row of {} B after the {}-byte batch header{}; use at least {} B",
        config.buffer_bytes, config.row_bytes, kBatchHeaderBytes,
        config.design == ShuffleDesign::message_layer ? " and the message layer's 64 bytes" : "",
        (header_bytes(config) + line_rows + kCacheLine - 1) / kCacheLine * kCacheLine));
  }
  if (config.buffers == 0) {
    throw UsageError("--buffers must be at least 1: a receiver with no buffer credits could never accept a batch");
  }
  if (config.buffers > 4096) throw UsageError(fmt::format("--buffers must be at most 4096, not {}", config.buffers));
  if (config.threads == 0) throw UsageError("--threads must be at least 1");
  if (config.row_writes == RowWrites::combining && !tiles_cache_line(config.row_bytes)) {
    throw UsageError(fmt::format("--row-writes combining needs rows of 16, 32 or 64 bytes, not {}", config.row_bytes));
  }
  if (config.threads > 256) throw UsageError(fmt::format("--threads must be at most 256, not {}", config.threads));
}

}  // namespace hpcdb
