#pragma once
// Arrow reports failures as Status or Result values; the engine's errors are
// exceptions with a message a user can act on. These turn the one into the
// other, naming what was being done.
#include <arrow/result.h>
#include <arrow/status.h>

#include <string>
#include <utility>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

inline void check_arrow(const arrow::Status& status, const std::string& what) {
  if (!status.ok()) throw Error(what + ": " + status.message());
}

template <class T>
T value_of(arrow::Result<T> result, const std::string& what) {
  if (!result.ok()) throw Error(what + ": " + result.status().message());
  return std::move(result).ValueUnsafe();
}

}  // namespace hpcdb
