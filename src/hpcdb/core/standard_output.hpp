#pragma once
// Standard output carries the summaries and, with '-', JSON: a full disk or
// a closed pipe behind it must fail the command like any other output. C
// stdio (and std::cout, which writes through it) reports a failed write only
// as a sticky flag, so writes are made to happen at flushes, where their
// system error is still known.
#include <string>
#include <string_view>

namespace hpcdb {

// Makes standard output fully buffered with a buffer larger than any
// summary, unless it is a terminal; call before the first output.
void buffer_standard_output();

// Flushes standard output; throws Error ("cannot write to standard output:
// <reason>") if this or an earlier write failed.
void flush_standard_output();

// Writes `text` to standard output and flushes it; messages name it as `what`.
void write_standard_output(std::string_view text, const std::string& what);

// Writes `line` and a newline to standard error in one write(), so that what
// other processes print meanwhile (mpirun's notices of an aborted job) cannot
// split the line. Best effort: standard error has nowhere to report to.
void write_error_line(std::string_view line);

}  // namespace hpcdb
