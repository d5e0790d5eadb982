#include "hpcdb/data/relation_file.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
#include <system_error>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/output_file.hpp"
#include "hpcdb/core/text_input.hpp"
#include "hpcdb/core/worker_team.hpp"

namespace hpcdb {

static_assert(std::endian::native == std::endian::little,
              "binary relation files are little-endian and are read and written without byte swapping");

namespace {

// Large enough to amortise the system calls, small enough to stay in L2/L3.
constexpr std::size_t kChunkBytes = std::size_t{4} << 20;
// Reads past the end of a CSV part fetch only the rest of its last line.
constexpr std::size_t kTailBytes = std::size_t{64} << 10;
// Single read system calls stay below Linux's 2 GiB limit.
constexpr std::size_t kMaxIoBytes = std::size_t{1} << 30;
// How much of a malformed line an error message shows.
constexpr std::size_t kShownLineChars = 60;

class InputFile {
 public:
  explicit InputFile(const std::string& path) : path_(path) {
    const RegularInput input = open_regular_input(
        path, "input file", "every rank reads its own byte range of an input, so it must be a regular file");
    fd_ = input.fd;
    size_ = input.size;
  }
  ~InputFile() { ::close(fd_); }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& path() const { return path_; }
  std::uint64_t size() const { return size_; }

  // Reads exactly `bytes` bytes at `offset`, which the caller keeps within size().
  void read_exactly(void* destination, std::size_t bytes, std::uint64_t offset) const {
    auto* out = static_cast<char*>(destination);
    while (bytes > 0) {
      const ssize_t got = ::pread(fd_, out, std::min(bytes, kMaxIoBytes), static_cast<off_t>(offset));
      if (got < 0) {
        if (errno == EINTR) continue;
        throw Error("cannot read input file '" + path_ + "': " + std::strerror(errno));
      }
      if (got == 0) throw Error("input file '" + path_ + "' became shorter while it was being read");
      out += got;
      bytes -= static_cast<std::size_t>(got);
      offset += static_cast<std::uint64_t>(got);
    }
  }

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

// How much of an input's beginning tells text from binary data.
constexpr std::size_t kHeadBytes = 4096;

std::string head_of(const InputFile& file) {
  std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(file.size(), kHeadBytes)), '\0');
  file.read_exactly(head.data(), head.size(), 0);
  return head;
}

// A byte no text file holds (UTF-8 text may hold bytes above 0x7F).
bool is_control_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && c != '\n' && c != '\r' && c != '\t') || u == 0x7F;
}

// Plain ASCII text: what CSV 'key,rid' lines are made of.
bool looks_like_text(const std::string& head) {
  return std::all_of(head.begin(), head.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80 && !is_control_byte(c); });
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool is_number(std::string_view s) {
  std::uint64_t value = 0;
  const auto result = std::from_chars(s.data(), s.data() + s.size(), value);
  return result.ec == std::errc{} && result.ptr == s.data() + s.size();
}

bool is_data_line(std::string_view line) {
  const std::size_t comma = line.find(',');
  return comma != std::string_view::npos && is_number(trimmed(line.substr(0, comma))) &&
         is_number(trimmed(line.substr(comma + 1)));
}

// Whether the beginning of a file (its first `head.size()` bytes of
// `file_size`) is made of CSV 'key,rid' lines: text, at least one line, every
// complete line blank or two numbers (the first may be a header).
bool looks_like_csv(std::string_view head, std::uint64_t file_size) {
  if (!looks_like_text(std::string(head))) return false;
  if (head.size() < file_size) {  // the last line may be cut: judge the complete ones
    const std::size_t last = head.rfind('\n');
    if (last == std::string_view::npos) return false;
    head = head.substr(0, last + 1);
  }
  if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
  bool data = false;
  for (bool first = true; !head.empty(); first = false) {
    const std::size_t end = std::min(head.find('\n'), head.size());
    const std::string_view line = trimmed(head.substr(0, end));
    head.remove_prefix(std::min(end + 1, head.size()));
    if (line.empty() || (first && is_clearly_a_header(line))) continue;
    if (!is_data_line(line)) return false;
    data = true;
  }
  return data;
}

AlignedArray<Tuple> read_binary_part(const InputFile& file, unsigned part, unsigned parts) {
  if (file.size() % sizeof(Tuple) != 0) {
    std::string message = fmt::format(
        "input '{}': its size, {} bytes, is not a multiple of 16, so it is not a binary relation file "
        "(16-byte records of a little-endian 64-bit key and RID)",
        file.path(), file.size());
    if (looks_like_text(head_of(file))) {
      message += "; it looks like text: if it holds 'key,rid' lines, give it a name ending in .csv";
    }
    throw UsageError(message);
  }
  if (looks_like_csv(head_of(file), file.size())) {
    throw UsageError(fmt::format(
        "input '{}' holds CSV text ('key,rid' lines), but a name that does not end in .csv is read as binary "
        "16-byte records; give it a name ending in .csv",
        file.path()));
  }
  const std::uint64_t records = file.size() / sizeof(Tuple);
  const std::uint64_t begin = split_point(records, parts, part);
  const std::uint64_t end = split_point(records, parts, part + 1);
  // pread writes every byte, so pre-faulting would only touch the pages twice.
  AlignedArray<Tuple> tuples(end - begin, Prefault::no);
  file.read_exactly(tuples.data(), (end - begin) * sizeof(Tuple), begin * sizeof(Tuple));
  return tuples;
}

bool is_blank(char c) { return c == ' ' || c == '\t'; }

const char* skip_blanks(const char* p) {
  while (is_blank(*p)) ++p;
  return p;
}

// A byte as a reader sees it in a message: printable ASCII as itself, others as \t or \xNN.
std::string escaped(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7F && c != '\\') return std::string(1, c);
  if (c == '\\') return "\\\\";
  if (c == '\t') return "\\t";
  return fmt::format("\\x{:02X}", u);
}

// The line starting at `line`, which ends at the next '\n' before `stop`,
// made printable and cut to a readable length.
std::string shown_line(const char* line, const char* stop) {
  const auto* newline = static_cast<const char*>(std::memchr(line, '\n', static_cast<std::size_t>(stop - line)));
  const char* end = newline != nullptr ? newline : stop;
  if (end > line && end[-1] == '\r') --end;
  const auto length = static_cast<std::size_t>(end - line);
  std::string shown;
  for (std::size_t i = 0; i < std::min(length, kShownLineChars); ++i) shown += escaped(line[i]);
  if (length > kShownLineChars) shown += "...";
  return shown;
}

[[noreturn]] void throw_malformed(const InputFile& file, std::uint64_t offset, const char* line, const char* stop,
                                  bool first_line = false) {
  throw UsageError(fmt::format(
      "input '{}': malformed line at byte offset {}: expected 'key,rid' with two unsigned 64-bit integers, "
      "found \"{}\"{}",
      file.path(), offset, shown_line(line, stop),
      first_line ? " (a first line is skipped as a header only when it names two columns, as 'key,rid' does; "
                   "--header yes skips it whatever it holds)"
                 : ""));
}

// A CSV input must be text: a byte that is not (a zero byte, a control
// character) near its start means binary data under a .csv name.
void refuse_binary_in_csv(const InputFile& file) {
  const std::string head = head_of(file);
  const auto bad = std::find_if(head.begin(), head.end(), is_control_byte);
  if (bad == head.end()) return;
  throw UsageError(fmt::format(
      "input '{}' is not text: byte offset {} holds {}, so it looks like binary data rather than CSV 'key,rid' "
      "lines; a binary relation file (16-byte records) needs a name that does not end in .csv",
      file.path(), bad - head.begin(), escaped(*bad)));
}

// Reads the lines of a CSV file that start in [begin, end).
class CsvPartReader {
 public:
  CsvPartReader(const InputFile& file, std::uint64_t begin, std::uint64_t end, CsvHeader header)
      : file_(file), begin_(begin), end_(end), header_(header), buffer_(new char[kChunkBytes + 1]) {}

  RelationPart read() {
    if (begin_ >= end_) return {};
    const std::uint64_t start = first_line_start();
    if (start >= end_) return {};
    RelationPart part;
    part.tuples = AlignedArray<Tuple>(line_bound(start), Prefault::no);
    part.tuples.resize(parse(start, part.tuples.data(), part.tuples.size()));
    part.skipped_header = std::move(skipped_header_);
    return part;
  }

 private:
  // The first line start at or after begin_: begin_ itself if it follows a
  // newline, else just past the next newline (the line that straddles begin_
  // belongs to the part before). The file size if there is none.
  std::uint64_t first_line_start() {
    if (begin_ == 0) return 0;
    std::uint64_t offset = begin_ - 1;
    while (offset < file_.size()) {
      const auto bytes = static_cast<std::size_t>(std::min<std::uint64_t>(kTailBytes, file_.size() - offset));
      file_.read_exactly(buffer_.get(), bytes, offset);
      const auto* newline = static_cast<const char*>(std::memchr(buffer_.get(), '\n', bytes));
      if (newline != nullptr) return offset + static_cast<std::uint64_t>(newline - buffer_.get()) + 1;
      offset += bytes;
    }
    return file_.size();
  }

  // At most one line starts at `start` and one after each newline in
  // [start, end_), so this bounds the tuples without over-allocating by the
  // line length. Counting is cheap next to parsing.
  std::size_t line_bound(std::uint64_t start) {
    std::size_t newlines = 0;
    for (std::uint64_t offset = start; offset < end_;) {
      const auto bytes = static_cast<std::size_t>(std::min<std::uint64_t>(kChunkBytes, end_ - offset));
      file_.read_exactly(buffer_.get(), bytes, offset);
      newlines += static_cast<std::size_t>(std::count(buffer_.get(), buffer_.get() + bytes, '\n'));
      offset += bytes;
    }
    return newlines + 1;
  }

  // Parses the lines starting in [start, end_) into out; returns their number.
  std::size_t parse(std::uint64_t start, Tuple* out, std::size_t capacity) {
    char* const buffer = buffer_.get();
    std::uint64_t buffer_offset = start;  // file offset of buffer[0], always a line start
    std::size_t filled = 0;
    std::size_t count = 0;
    bool first_line = start == 0;
    for (;;) {
      const std::uint64_t read_offset = buffer_offset + filled;
      std::uint64_t want = kChunkBytes - filled;
      want = std::min<std::uint64_t>(want, read_offset < end_ ? end_ - read_offset : kTailBytes);
      want = std::min<std::uint64_t>(want, file_.size() - read_offset);
      file_.read_exactly(buffer + filled, static_cast<std::size_t>(want), read_offset);
      filled += static_cast<std::size_t>(want);

      // Lines are parsed only when their '\n' is in the buffer; at the end of
      // the file a sentinel newline terminates the last line.
      const bool at_end_of_file = buffer_offset + filled == file_.size();
      std::size_t complete = 0;
      if (at_end_of_file) {
        buffer[filled] = '\n';
        complete = filled + 1;
      } else {
        complete = filled;
        while (complete > 0 && buffer[complete - 1] != '\n') --complete;
        if (complete == 0) {
          if (filled == kChunkBytes) {
            throw UsageError(fmt::format("input '{}': the line at byte offset {} is longer than {} MiB; expected "
                                         "'key,rid' lines with two unsigned 64-bit integers",
                                         file_.path(), buffer_offset, kChunkBytes >> 20));
          }
          continue;
        }
      }

      const char* p = buffer;
      const char* const stop = buffer + complete;
      bool part_done = false;
      while (p < stop) {
        const std::uint64_t line_offset = buffer_offset + static_cast<std::uint64_t>(p - buffer);
        if (line_offset >= end_) {
          part_done = true;
          break;
        }
        const char* q = p;
        const bool at_first_line = first_line;
        if (first_line) {
          first_line = false;
          if (stop - q >= 3 && std::memcmp(q, "\xEF\xBB\xBF", 3) == 0) q += 3;
          const char* newline = static_cast<const char*>(std::memchr(q, '\n', static_cast<std::size_t>(stop - q)));
          std::string_view line(q, static_cast<std::size_t>(newline - q));
          if (line.ends_with('\r')) line.remove_suffix(1);
          if (header_ == CsvHeader::present || (header_ == CsvHeader::automatic && is_clearly_a_header(line))) {
            skipped_header_ = std::string(line);
            p = newline + 1;
            continue;
          }
        }
        const auto malformed = [&] { throw_malformed(file_, line_offset, p, stop, at_first_line); };
        q = skip_blanks(q);
        if (*q == '\r') ++q;
        if (*q == '\n') {  // blank line
          p = q + 1;
          continue;
        }
        Tuple tuple{};
        const auto key = std::from_chars(q, stop, tuple.key);
        if (key.ec != std::errc{}) malformed();
        q = skip_blanks(key.ptr);
        if (*q != ',') malformed();
        q = skip_blanks(q + 1);
        const auto rid = std::from_chars(q, stop, tuple.rid);
        if (rid.ec != std::errc{}) malformed();
        q = skip_blanks(rid.ptr);
        if (*q == '\r') ++q;
        if (*q != '\n') malformed();
        if (count == capacity) {
          throw Error("input file '" + file_.path() + "' changed while it was being read");
        }
        out[count++] = tuple;
        p = q + 1;
      }
      if (part_done || at_end_of_file) return count;
      std::memmove(buffer, buffer + complete, filled - complete);
      buffer_offset += complete;
      filled -= complete;
    }
  }

  const InputFile& file_;
  std::uint64_t begin_;
  std::uint64_t end_;
  CsvHeader header_;
  std::optional<std::string> skipped_header_;
  std::unique_ptr<char[]> buffer_;  // kChunkBytes plus room for a sentinel
};

void write_csv(FileSink& file, const Tuple* tuples, std::size_t count) {
  // The longest line is two 20-digit numbers, a comma and a newline.
  constexpr std::size_t kMaxLine = 2 * 20 + 2;
  const std::unique_ptr<char[]> buffer(new char[kChunkBytes]);
  char* const begin = buffer.get();
  char* const flush_at = begin + kChunkBytes - kMaxLine;
  char* p = begin;
  constexpr char kHeader[] = "key,rid\n";
  p = std::copy(kHeader, kHeader + sizeof(kHeader) - 1, p);
  for (std::size_t i = 0; i < count; ++i) {
    if (p > flush_at) {
      file.write(begin, static_cast<std::size_t>(p - begin));
      p = begin;
    }
    p = std::to_chars(p, p + 20, tuples[i].key).ptr;
    *p++ = ',';
    p = std::to_chars(p, p + 20, tuples[i].rid).ptr;
    *p++ = '\n';
  }
  file.write(begin, static_cast<std::size_t>(p - begin));
}

}  // namespace

FileFormat format_for_path(const std::string& path) {
  constexpr std::string_view kSuffix = ".csv";
  if (path.size() < kSuffix.size()) return FileFormat::binary;
  const std::string_view tail = std::string_view(path).substr(path.size() - kSuffix.size());
  const bool csv = std::equal(tail.begin(), tail.end(), kSuffix.begin(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == b;
  });
  return csv ? FileFormat::csv : FileFormat::binary;
}

CsvHeader parse_csv_header(const std::string& text, const std::string& option) {
  if (text == "auto") return CsvHeader::automatic;
  if (text == "yes") return CsvHeader::present;
  if (text == "no") return CsvHeader::absent;
  throw UsageError(option + " must be auto, yes or no, not '" + text + "'");
}

std::string to_string(CsvHeader header) {
  return header == CsvHeader::automatic ? "auto" : header == CsvHeader::present ? "yes" : "no";
}

bool is_clearly_a_header(std::string_view line) {
  const auto is_name = [](std::string_view field) {
    field = trimmed(field);
    if (field.size() >= 2 && field.front() == '"' && field.back() == '"') field = field.substr(1, field.size() - 2);
    if (field.empty()) return false;
    const auto u = static_cast<unsigned char>(field.front());
    if (!std::isalpha(u) && field.front() != '_') return false;
    return std::all_of(field.begin(), field.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ' ';
    });
  };
  const std::size_t comma = line.find(',');
  if (comma == std::string_view::npos || line.find(',', comma + 1) != std::string_view::npos) return false;
  return is_name(line.substr(0, comma)) && is_name(line.substr(comma + 1));
}

RelationPart read_relation_part(const std::string& path, unsigned part, unsigned parts, CsvHeader header) {
  if (parts == 0 || part >= parts) {
    throw UsageError(fmt::format("cannot read part {} of {} of input '{}': the part must be below the number of parts",
                                 part, parts, path));
  }
  const InputFile file(path);
  if (format_for_path(path) == FileFormat::binary) return {read_binary_part(file, part, parts), std::nullopt};
  refuse_binary_in_csv(file);
  CsvPartReader reader(file, split_point(file.size(), parts, part), split_point(file.size(), parts, part + 1), header);
  return reader.read();
}

void write_relation(const std::string& path, FileFormat format, const Tuple* tuples, std::size_t count) {
  StagedOutput output(path, "relation file");
  FileSink file(output.staging_path(), "relation file", path);
  if (format == FileFormat::binary) {
    file.write(tuples, count * sizeof(Tuple));
  } else {
    write_csv(file, tuples, count);
  }
  file.close();
  output.commit();
}

}  // namespace hpcdb
