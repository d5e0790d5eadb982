#pragma once
// Independent bookkeeping for message-layer tests: senders fill payloads
// with seeded random bytes and note, per target, how many messages and the
// sum of their payloads' hashes and sizes; handlers note the same per source
// from what they received. settle() exchanges the notes (MPI_Alltoall) and
// says what differs, so a lost, duplicated, misrouted or damaged message
// shows, whatever order messages arrived in.
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace hpcdb::testing {

inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

inline std::uint64_t payload_hash(std::span<const std::byte> bytes) {
  std::uint64_t h = 1469598103934665603ull ^ bytes.size();
  for (std::byte b : bytes) h = (h ^ static_cast<std::uint64_t>(b)) * 1099511628211ull;
  return mix(h);
}

inline void fill_payload(std::byte* data, std::size_t size, std::uint64_t seed) {
  for (std::size_t i = 0; i < size; ++i) data[i] = static_cast<std::byte>(mix(seed + i / 8) >> (8 * (i % 8)));
}

struct LedgerEntry {
  std::uint64_t messages = 0;
  std::uint64_t hash_sum = 0;
  std::uint64_t bytes = 0;
};

class TrafficLedger {
 public:
  explicit TrafficLedger(int ranks) : sent_(static_cast<std::size_t>(ranks)), received_(static_cast<std::size_t>(ranks)) {}

  void note_sent(int target, std::span<const std::byte> payload) {
    std::lock_guard lock(mutex_);
    add(sent_[static_cast<std::size_t>(target)], payload);
  }
  void note_received(int source, std::span<const std::byte> payload) {
    std::lock_guard lock(mutex_);
    add(received_[static_cast<std::size_t>(source)], payload);
  }
  std::uint64_t received_count() const {
    std::lock_guard lock(mutex_);
    std::uint64_t n = 0;
    for (const auto& e : received_) n += e.messages;
    return n;
  }
  // "" when every rank received exactly what was sent to it; else what differs.
  std::string settle(MPI_Comm comm) const {
    const std::size_t ranks = sent_.size();
    std::vector<LedgerEntry> expected(ranks);
    MPI_Alltoall(sent_.data(), 3, MPI_UINT64_T, expected.data(), 3, MPI_UINT64_T, comm);
    std::string diff;
    for (std::size_t s = 0; s < ranks; ++s) {
      const LedgerEntry& e = expected[s];
      const LedgerEntry& r = received_[s];
      if (e.messages != r.messages || e.hash_sum != r.hash_sum || e.bytes != r.bytes) {
        diff += "from rank " + std::to_string(s) + ": expected " + std::to_string(e.messages) + " messages / " +
                std::to_string(e.bytes) + " bytes, received " + std::to_string(r.messages) + " / " +
                std::to_string(r.bytes) + (e.hash_sum != r.hash_sum ? " (content differs)" : "") + "; ";
      }
    }
    return diff;
  }

 private:
  static void add(LedgerEntry& e, std::span<const std::byte> payload) {
    ++e.messages;
    e.hash_sum += payload_hash(payload);
    e.bytes += payload.size();
  }
  mutable std::mutex mutex_;
  std::vector<LedgerEntry> sent_;
  std::vector<LedgerEntry> received_;
};

}  // namespace hpcdb::testing
