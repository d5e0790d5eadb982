#include "hpcdb/join/join_config.hpp"

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/named_values.hpp"

namespace hpcdb {
namespace {

constexpr NamedValues<Compression, 2> kCompressionNames{{{Compression::automatic, "auto"}, {Compression::off, "off"}}};

}  // namespace

std::string to_string(Compression value) { return name_of(value, kCompressionNames); }
Compression parse_compression(const std::string& text) { return value_named(text, kCompressionNames, "--compression"); }

void require_option(bool ok, const char* message) {
  if (!ok) throw UsageError(message);
}

void validate_worker_threads(unsigned threads) {
  require_option(threads >= 1 && threads <= 1024, "--threads must be between 1 and 1024");
}

void validate_input_chunks(unsigned chunks) { require_option(chunks <= 4096, "--input-chunks must be at most 4096"); }

}  // namespace hpcdb
