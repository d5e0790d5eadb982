#include "hpcdb/txn/tpcc/tpcc_random.hpp"

#include <cstring>
#include <string_view>

namespace hpcdb::tpcc {

NurandConstants NurandConstants::from_seed(std::uint64_t seed) {
  SplitMix64 rng(seed ^ 0xC0457A57u);
  NurandConstants c;
  c.c_last_load = static_cast<int>(uniform(rng, 0, 255));
  int delta = 0;
  do {
    delta = static_cast<int>(uniform(rng, 65, 119));
  } while (delta == 96 || delta == 112);
  c.c_last_run = (c.c_last_load + delta) % 256;
  c.c_id = static_cast<int>(uniform(rng, 0, 1023));
  c.ol_i_id = static_cast<int>(uniform(rng, 0, 8191));
  return c;
}

void last_name(int number, char (&out)[16]) {
  static constexpr std::string_view kSyllables[] = {"BAR", "OUGHT", "ABLE",  "PRI",   "PRES",
                                                    "ESE", "ANTI",  "CALLY", "ATION", "EING"};
  std::memset(out, 0, sizeof out);
  std::size_t at = 0;
  for (int digit : {number / 100, number / 10 % 10, number % 10}) {
    const std::string_view s = kSyllables[digit];
    std::memcpy(out + at, s.data(), s.size());
    at += s.size();
  }
}

bool contains_original(const char* data, int capacity) {
  const std::string_view text(data, static_cast<std::size_t>(capacity));
  return text.find("ORIGINAL") != std::string_view::npos;
}

}  // namespace hpcdb::tpcc
