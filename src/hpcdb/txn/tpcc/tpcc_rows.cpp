#include "hpcdb/txn/tpcc/tpcc_rows.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "hpcdb/core/error.hpp"

namespace hpcdb::tpcc {

RowRef TpccRows::item(int w, int i) const {
  const LockSpace& space = txn_.space();
  const int agent = space.agent_of_partition(part(w));
  return {kItemTable, part(w), static_cast<std::uint64_t>(i),
          {space.partitions() + static_cast<std::uint32_t>(agent), TpccLayout::item(i)}};
}

DataRef TpccRows::header_word(int w, int d, std::uint64_t DistrictAreaHeader::*field) const {
  static const DistrictAreaHeader probe{};
  const auto offset = static_cast<std::uint64_t>(reinterpret_cast<const std::byte*>(&(probe.*field)) -
                                                 reinterpret_cast<const std::byte*>(&probe));
  return {part(w), layout_.area_header(d) + offset};
}

void TpccRows::lock_instant(std::uint32_t table, std::uint32_t partition, std::uint64_t key, LockMode mode) {
  if (lock_key(txn_, table, partition, key, mode)) txn_.unlock(LockSpace::key_lock(table, partition, key));
}

void TpccRows::pass_next_key(std::uint32_t table, std::uint32_t partition, std::uint64_t key) {
  const LockId lock = LockSpace::key_lock(table, partition, key);
  if (std::find(passed_.begin(), passed_.end(), lock) != passed_.end()) return;
  lock_instant(table, partition, key, LockMode::X);
  passed_.push_back(lock);
}

int TpccRows::customer_by_name(int w, int d, const char (&c_last)[16]) {
  const std::uint32_t hash = last_name_hash(c_last);
  if (txn_.serializable()) lock(kCustomerNameIndex, w, name_key(d, hash), LockMode::S);
  for (int b = static_cast<int>(hash % kNameBuckets);; b = (b + 1) % kNameBuckets) {
    const NameBucket bucket = txn_.read<NameBucket>({part(w), layout_.name_bucket(d, b)});
    if (bucket.count == 0) {
      throw Error("no customer of district " + std::to_string(d) + " of warehouse " + std::to_string(w) +
                  " has the last name " + std::string(c_last, strnlen(c_last, 16)));
    }
    if (std::memcmp(bucket.c_last, c_last, 16) != 0) continue;
    entries_.resize(bucket.count);
    txn_.read({part(w), layout_.name_entry(d, static_cast<int>(bucket.first))}, entries_.data(),
              bucket.count * sizeof(NameEntry));
    return entries_[(bucket.count + 1) / 2 - 1].c_id;
  }
}

}  // namespace hpcdb::tpcc
