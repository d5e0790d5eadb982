#include "hpcdb/txn/id_slot_map.hpp"

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>

namespace hpcdb {
namespace {

TEST(IdSlotMap, AgreesWithAReferenceUnderRandomInsertsAndErases) {
  IdSlotMap map(4);  // tiny: it must grow
  std::unordered_map<std::uint64_t, std::uint32_t> reference;
  std::mt19937_64 rng(7);
  for (int step = 0; step < 200000; ++step) {
    // Few distinct ids, clustered, so that probe runs collide and wrap.
    const std::uint64_t id = (rng() % 3000) * ((step & 1) ? 1 : 1ull << 40);
    if (rng() % 3 != 0 && !reference.contains(id)) {
      const auto slot = static_cast<std::uint32_t>(rng());
      map.insert(id, slot);
      reference[id] = slot;
    } else {
      map.erase(id);
      reference.erase(id);
    }
    if (step % 1000 == 0) {
      ASSERT_EQ(map.size(), reference.size());
      for (const auto& [k, v] : reference) ASSERT_EQ(map.find(k), v) << k;
    }
  }
  std::size_t seen = 0;
  map.for_each([&](std::uint64_t id, std::uint32_t slot) {
    ++seen;
    EXPECT_EQ(reference.at(id), slot);
  });
  EXPECT_EQ(seen, reference.size());
  EXPECT_FALSE(map.find(0xdeadbeef).has_value());
}

}  // namespace
}  // namespace hpcdb
