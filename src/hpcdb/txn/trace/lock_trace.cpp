#include "hpcdb/txn/trace/lock_trace.hpp"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <set>
#include <sstream>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/output_file.hpp"
#include "hpcdb/core/text_input.hpp"
#include "hpcdb/txn/lock_space.hpp"

namespace hpcdb {
namespace {

template <class T>
bool parse_number(std::string_view text, T& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

// Splits "a,b,c,d" into exactly four fields.
bool four_fields(std::string_view line, std::string_view (&fields)[4]) {
  for (int i = 0; i < 3; ++i) {
    const std::size_t comma = line.find(',');
    if (comma == std::string_view::npos) return false;
    fields[i] = line.substr(0, comma);
    line.remove_prefix(comma + 1);
  }
  if (line.find(',') != std::string_view::npos) return false;
  fields[3] = line;
  return true;
}

}  // namespace

std::string trace_file_name(const std::string& dir, std::uint32_t warehouse) {
  return (std::filesystem::path(dir) / fmt::format("wh{:06d}.csv", warehouse)).string();
}

std::string locks_per_warehouse_file_name(const std::string& dir) {
  return (std::filesystem::path(dir) / "max-locks-per-wh.meta").string();
}

void write_locks_per_warehouse(const std::string& dir, std::uint64_t locks) {
  write_output_file(locks_per_warehouse_file_name(dir), "lock trace meta file", fmt::format("{}\n", locks));
}

std::uint64_t read_locks_per_warehouse(const std::string& dir) {
  const std::string path = locks_per_warehouse_file_name(dir);
  std::string text;
  try {
    text = read_text_input(path, "lock trace meta file");
  } catch (const UsageError& e) {
    throw UsageError(std::string(e.what()) + "; a lock trace directory holds the number of lock ids per warehouse "
                     "there (written by --trace-out, as the thesis's traces come with it)");
  }
  text = text.substr(0, text.find('\n'));
  // The artifact's scripts take the first number on the line (wc -l output).
  const std::size_t digits = text.find_first_of("0123456789");
  std::uint64_t locks = 0;
  const std::string_view number =
      digits == std::string::npos ? std::string_view() : std::string_view(text).substr(digits, text.find_first_not_of("0123456789", digits) - digits);
  if (!parse_number(number, locks) || locks == 0 || locks > LockSpace::kMaxKey) {
    throw UsageError(fmt::format("'{}' must hold the number of lock ids per warehouse (1 to {}), not '{}'", path,
                                 LockSpace::kMaxKey, text.substr(0, 80)));
  }
  return locks;
}

void write_trace_file(const std::string& path, const std::vector<TraceTransaction>& transactions) {
  std::string content;
  for (const TraceTransaction& t : transactions) {
    for (const TracedLock& l : t.locks) {
      content += fmt::format("{},{},{},{}\n", t.number, l.lock, to_string(l.mode), t.name);
    }
  }
  write_output_file(path, "lock trace file", content);
}

std::vector<TraceTransaction> read_trace_file(const std::string& path) {
  std::istringstream in(read_text_input(path, "lock trace file"));
  std::vector<TraceTransaction> out;
  std::string line;
  for (std::uint64_t number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || (number == 1 && line.rfind("trx_num", 0) == 0)) continue;
    std::string_view fields[4];
    TracedLock lock{};
    std::uint64_t trx = 0;
    const auto mode = four_fields(line, fields) ? parse_lock_mode(std::string(fields[2])) : std::nullopt;
    if (!mode || *mode == LockMode::NL || !parse_number(fields[0], trx) || !parse_number(fields[1], lock.lock) ||
        fields[3].empty()) {
      throw UsageError(fmt::format("{}:{}: not a lock trace line 'trx_num,lock_id,mode,trx_name' (mode IS, IX, S, "
                                   "SIX or X): '{}'",
                                   path, number, line.substr(0, 80)));
    }
    lock.mode = *mode;
    if (out.empty() || out.back().number != trx) out.push_back({trx, std::string(fields[3]), {}});
    out.back().locks.push_back(lock);
  }
  return out;
}

std::uint32_t count_trace_files(const std::string& dir) {
  if (!std::filesystem::is_directory(dir)) throw UsageError("lock trace directory '" + dir + "' does not exist");
  std::set<std::uint32_t> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    std::uint32_t w = 0;
    if (name.size() == 12 && name.rfind("wh", 0) == 0 && name.substr(8) == ".csv" && parse_number(std::string_view(name).substr(2, 6), w)) {
      found.insert(w);
    }
  }
  if (found.empty()) throw UsageError("lock trace directory '" + dir + "' holds no wh000001.csv, wh000002.csv, ...");
  const auto count = static_cast<std::uint32_t>(found.size());
  if (*found.begin() != 1 || *found.rbegin() != count) {
    throw UsageError(fmt::format("lock trace directory '{}' must hold wh000001.csv to wh{:06d}.csv without gaps", dir,
                                 *found.rbegin()));
  }
  return count;
}

}  // namespace hpcdb
