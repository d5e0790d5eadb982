#pragma once
// What the command line gets wrong before any command runs, said in plain
// words: an unknown or mistyped command, an option given twice, a negative
// number for an option that counts, a number that is not finite.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace hpcdb {

// The message for a first argument that names no command ("unknown command
// 'jion' (did you mean 'join'?); the commands are ..."), or for no command
// at all; nothing when the command is known.
std::optional<std::string> unknown_command_message(const std::vector<std::string>& args,
                                                   const std::vector<std::string>& commands);

// The message for an option given more than once ("--inner was given twice
// ('1000' and '2000'); give it once"); nothing otherwise.
std::optional<std::string> repeated_option_message(const std::vector<std::string>& args);

// Adds to every option of `app` and its subcommands, by the type it fills:
// unsigned numbers refuse a minus sign (instead of wrapping around to 2^64 - 1),
// floating-point numbers refuse nan and infinities.
void refuse_wrapped_and_non_finite_numbers(CLI::App& app);

// "hpcdb VERSION" and the MPI library's own version line.
std::string version_text();

}  // namespace hpcdb
