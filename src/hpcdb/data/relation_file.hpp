#pragma once
// Relations stored in files, read in parts so that each process reads only
// its share.
//
// Binary format: the tuples as 16-byte records <key, rid>, both unsigned
// 64-bit little-endian, nothing else. Part i of P holds the records
// [split_point(n, P, i), split_point(n, P, i + 1)) of the n in the file.
//
// CSV format: one tuple per line, "key,rid", both unsigned 64-bit decimal
// integers, optionally surrounded by spaces or tabs, lines ending in "\n" or
// "\r\n" (the last one may lack it). Blank lines are ignored, and so is a
// leading UTF-8 byte order mark. Whether the first line is a header is the
// reader's choice (CsvHeader): with `automatic` it is one only when it is
// clearly one, two names such as "key,rid" (each field a letter or '_'
// followed by letters, digits, '_', '-', '.' or spaces, optionally quoted);
// anything else on the first line is data and must parse as such. Part i of P
// holds the tuples of every line that starts inside the byte range
// [split_point(size, P, i), split_point(size, P, i + 1)) of the file, so that
// every line belongs to exactly one part, in file order, even when there are
// more parts than lines.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

enum class FileFormat { binary, csv };

// csv for names ending in ".csv" (in any case), binary otherwise.
FileFormat format_for_path(const std::string& path);

// How a CSV input's first line is taken: a header only when it is clearly
// one (`automatic`), always skipped (`present`), or always data (`absent`).
enum class CsvHeader { automatic, present, absent };

// "auto", "yes" or "no"; throws UsageError naming `option` otherwise.
CsvHeader parse_csv_header(const std::string& text, const std::string& option);
std::string to_string(CsvHeader header);  // auto, yes or no

// Whether a CSV line (without its line end) is clearly a header: two names.
bool is_clearly_a_header(std::string_view line);

struct RelationPart {
  AlignedArray<Tuple> tuples;
  // The first line of the file, when this part began with it and skipped it as a header.
  std::optional<std::string> skipped_header;
};

// Reads part `part` of `parts` (0 <= part < parts) of the relation in `path`,
// in the format format_for_path(path) names. A missing, unreadable, non-regular
// (FIFO, device: refused before it is opened for reading, so nothing blocks) or
// malformed file is a UsageError whose message names the file and, for CSV,
// the byte offset of the offending line (unprintable bytes shown as \xNN). A
// binary input that holds CSV text, or a CSV input that holds binary bytes, is
// refused with a hint about the name.
RelationPart read_relation_part(const std::string& path, unsigned part, unsigned parts,
                                CsvHeader header = CsvHeader::automatic);

// Writes the whole relation, replacing any existing file once it is complete
// (core/output_file.hpp); CSV output starts with the header line "key,rid".
// Throws Error if the file cannot be written.
void write_relation(const std::string& path, FileFormat format, const Tuple* tuples, std::size_t count);

}  // namespace hpcdb
