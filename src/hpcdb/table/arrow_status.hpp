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

// The status' message, with the system's reason where Arrow keeps it apart
// ("Error writing bytes to file" says nothing of a full disk or a file size
// limit; its errno is the status' detail).
inline std::string arrow_message(const arrow::Status& status) {
  std::string message = status.message();
  if (const auto& detail = status.detail(); detail != nullptr) {
    std::string reason = detail->ToString();  // "[errno 27] File too large"
    const auto text = reason.find("] ");
    if (reason.rfind("[errno", 0) == 0 && text != std::string::npos) reason = reason.substr(text + 2);
    if (!reason.empty() && message.find(reason) == std::string::npos) message += ": " + reason;
  }
  return message;
}

inline void check_arrow(const arrow::Status& status, const std::string& what) {
  if (!status.ok()) throw Error(what + ": " + arrow_message(status));
}

template <class T>
T value_of(arrow::Result<T> result, const std::string& what) {
  if (!result.ok()) throw Error(what + ": " + arrow_message(result.status()));
  return std::move(result).ValueUnsafe();
}

}  // namespace hpcdb
