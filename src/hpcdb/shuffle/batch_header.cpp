#include "hpcdb/shuffle/batch_header.hpp"

#include <fmt/format.h>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

void check_header(const BatchHeader& header, int ranks, const ShuffleConfig& config, std::size_t received_bytes) {
  if (header.magic != kBatchMagic || header.version != kBatchVersion) {
    throw Error(fmt::format("received a message that is no shuffle batch (magic {:#x}, version {})", header.magic,
                            header.version));
  }
  if (header.source >= static_cast<std::uint32_t>(ranks) || header.stream >= config.threads ||
      header.row_bytes != config.row_bytes || header.rows > rows_per_batch(config)) {
    throw Error(fmt::format("received a malformed shuffle batch: source {}, stream {}, {} rows of {} B (expected a "
                            "source below {}, a stream below {}, at most {} rows of {} B)",
                            header.source, header.stream, header.rows, header.row_bytes, ranks, config.threads,
                            rows_per_batch(config), config.row_bytes));
  }
  if (received_bytes != 0 && received_bytes != kBatchHeaderBytes + header.payload_bytes()) {
    throw Error(fmt::format("received a shuffle batch of {} B from rank {} whose header announces {} B",
                            received_bytes, header.source, kBatchHeaderBytes + header.payload_bytes()));
  }
}

}  // namespace hpcdb
