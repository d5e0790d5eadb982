#pragma once
// What every join operator takes besides its own options (each operator's
// config is in its folder: radix/radix_config.hpp, ...), and the helpers
// their validate() functions share. Each validate() throws a UsageError
// naming the command-line option.
#include <cstddef>
#include <string>

#include "hpcdb/core/injected_failure.hpp"

namespace hpcdb {

enum class Compression { automatic, off };

std::string to_string(Compression value);  // auto, off
Compression parse_compression(const std::string& text);

struct JoinBasics {
  Compression compression = Compression::automatic;
  bool keep_pairs = false;  // materialize <rid_r, rid_s> pairs
  InjectedFailure failure;  // testing aid: an error thrown in a phase (FailureMode::error)
};

inline constexpr std::size_t kMaxJoinBufferBytes = std::size_t{1} << 30;

// Throws UsageError(message) unless ok.
void require_option(bool ok, const char* message);
void validate_worker_threads(unsigned threads);  // --threads
void validate_input_chunks(unsigned chunks);     // --input-chunks

}  // namespace hpcdb
