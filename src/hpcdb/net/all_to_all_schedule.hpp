#pragma once
// The order in which a rank sends its pieces of an all-to-all exchange
// (2012 thesis, section 6.1). With one down-link per receiver, two senders
// writing to one receiver at once each get half its link:
//   synchronized    rounds 1 .. n-1; in round k every rank sends to
//                   (rank + k) mod n and receives from (rank - k) mod n,
//                   all waiting for each other after every round, so no two
//                   senders ever share a receiver;
//   unsynchronized  the same order, without waiting (ranks drift into each
//                   other's rounds: the "jam");
//   random          chunks to a random rank among those still owed data.
#include <cstdint>
#include <string>
#include <vector>

namespace hpcdb {

enum class ExchangeSchedule { unsynchronized, synchronized, random };

ExchangeSchedule parse_exchange_schedule(const std::string& text);  // UsageError for others
std::string to_string(ExchangeSchedule schedule);

// The targets of rank `me` of `ranks`, round by round (synchronized and
// unsynchronized): (me + k) mod ranks for k = 1 .. ranks - 1.
std::vector<int> ring_order(int me, int ranks);

// Random: which target each of the chunks goes to, in sending order, when
// target t is owed chunks[t] chunks (targets drawn uniformly among those
// still owed one, as the thesis's work set).
std::vector<int> random_chunk_order(const std::vector<std::uint64_t>& chunks, std::uint64_t seed);

}  // namespace hpcdb
