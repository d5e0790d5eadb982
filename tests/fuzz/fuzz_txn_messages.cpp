// The transaction messages' wire format on any bytes: decode() returns a
// message or throws Error, and what it accepts encodes back to the same bytes
// it read (so no two byte strings stand for one message).
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "hpcdb/core/error.hpp"
#include "hpcdb/txn/txn_messages.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::array<std::byte, hpcdb::kMaxMessageBytes> in{};
  std::memcpy(in.data(), data, std::min(size, in.size()));
  hpcdb::TxnMessage m;
  try {
    m = hpcdb::decode(in);
  } catch (const hpcdb::Error&) {
    return 0;
  }
  std::array<std::byte, hpcdb::kMaxMessageBytes> out{};
  const std::size_t used = hpcdb::encode(m, out);
  if (used > out.size()) std::abort();
  const hpcdb::TxnMessage again = hpcdb::decode(out);
  std::array<std::byte, hpcdb::kMaxMessageBytes> out_again{};
  hpcdb::encode(again, out_again);
  if (out != out_again) std::abort();
  return 0;
}
