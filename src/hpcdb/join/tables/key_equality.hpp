#pragma once
// Key values compared row by row on the real values (after a join on 64-bit
// hashes, so that a hash collision never yields a wrong row): integers of
// any width and sign by value, date32 and timestamps by value, strings and
// large strings by their bytes. A null equals nothing.
#include <arrow/array.h>

#include <cstdint>
#include <vector>

namespace hpcdb {

// Clears keep[i] where a[i] and b[i] differ or either is null (same lengths).
void keep_equal_rows(const arrow::Array& a, const arrow::Array& b, std::vector<std::uint8_t>& keep);

}  // namespace hpcdb
