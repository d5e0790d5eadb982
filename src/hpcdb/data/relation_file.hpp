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
// "\r\n" (the last one may lack it). Blank lines are ignored. The first line
// is a header and skipped if its first non-blank character is none of a
// digit, '+' or '-' (a leading UTF-8 byte order mark is ignored). Part i of P
// holds the tuples of every line that starts inside the byte range
// [split_point(size, P, i), split_point(size, P, i + 1)) of the file, so that
// every line belongs to exactly one part, in file order, even when there are
// more parts than lines.
#include <cstddef>
#include <string>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

enum class FileFormat { binary, csv };

// csv for names ending in ".csv" (in any case), binary otherwise.
FileFormat format_for_path(const std::string& path);

// Reads part `part` of `parts` (0 <= part < parts) of the relation in `path`,
// in the format format_for_path(path) names. A missing, unreadable or
// malformed file is a UsageError whose message names the file and, for CSV,
// the byte offset of the offending line.
AlignedArray<Tuple> read_relation_part(const std::string& path, unsigned part, unsigned parts);

// Writes the whole relation, replacing any existing file once it is complete
// (core/output_file.hpp); CSV output starts with the header line "key,rid".
// Throws Error if the file cannot be written.
void write_relation(const std::string& path, FileFormat format, const Tuple* tuples, std::size_t count);

}  // namespace hpcdb
