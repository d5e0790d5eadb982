#pragma once
// The two identifiers every part of the transaction engine speaks of.
#include <cstdint>

namespace hpcdb {

using TxnId = std::uint64_t;   // unique per transaction; also its age: smaller is older (wait-die)
using LockId = std::uint64_t;  // a (table, partition, key) name encoded by LockSpace

}  // namespace hpcdb
