#include "hpcdb/apps/hpcdb/command_line.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#ifndef HPCDB_VERSION
#define HPCDB_VERSION "unknown"
#endif

namespace hpcdb {
namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

std::string times_in_words(std::size_t n) {
  if (n == 2) return "twice";
  if (n == 3) return "three times";
  return std::to_string(n) + " times";
}

}  // namespace

std::optional<std::string> unknown_command_message(const std::vector<std::string>& args,
                                                   const std::vector<std::string>& commands) {
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h" || arg == "--version") return std::nullopt;
  }
  const auto first = std::find_if(args.begin(), args.end(), [](const std::string& a) { return !a.starts_with("-"); });
  if (first == args.end()) return "give a command: " + joined(commands) + " ('hpcdb --help' says what each does)";
  if (std::find(commands.begin(), commands.end(), *first) != commands.end()) return std::nullopt;
  std::string closest;
  std::size_t best = 3;  // at most two edits count as a typo
  for (const std::string& command : commands) {
    const std::size_t d = edit_distance(*first, command);
    if (d < best) {
      best = d;
      closest = command;
    }
  }
  return "unknown command '" + *first + "'" + (closest.empty() ? "" : " (did you mean '" + closest + "'?)") +
         "; the commands are " + joined(commands);
}

std::optional<std::string> repeated_option_message(const std::vector<std::string>& args) {
  std::map<std::string, std::vector<std::string>> values;  // option -> the values given, in order
  std::vector<std::string> order;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!arg.starts_with("--") || arg == "--") continue;
    const std::size_t equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    std::string value;
    if (equals != std::string::npos) {
      value = arg.substr(equals + 1);
    } else if (i + 1 < args.size() && !args[i + 1].starts_with("--")) {
      value = args[i + 1];
    }
    if (values[name].empty()) order.push_back(name);
    values[name].push_back(value);
  }
  for (const std::string& name : order) {
    const std::vector<std::string>& given = values[name];
    if (given.size() < 2) continue;
    std::string shown;
    for (std::size_t i = 0; i < given.size(); ++i) {
      shown += (i == 0 ? "" : i + 1 == given.size() ? " and " : ", ") + ("'" + given[i] + "'");
    }
    const bool flag = std::all_of(given.begin(), given.end(), [](const std::string& v) { return v.empty(); });
    return name + " was given " + times_in_words(given.size()) + (flag ? "" : " (" + shown + ")") + "; give it once";
  }
  return std::nullopt;
}

void refuse_wrapped_and_non_finite_numbers(CLI::App& app) {
  for (CLI::Option* option : app.get_options([](CLI::Option*) { return true; })) {
    const std::string type = option->get_type_name();
    if (type.starts_with("UINT")) {
      option->check(
          [](const std::string& value) -> std::string {
            const std::size_t first = value.find_first_not_of(" \t");
            if (first != std::string::npos && value[first] == '-') {
              return "must be a whole number of 0 or more, not '" + value + "'";
            }
            return {};
          },
          "", "non-negative");
    } else if (type.starts_with("FLOAT")) {
      option->check(
          [](const std::string& value) -> std::string {
            char* end = nullptr;
            const double number = std::strtod(value.c_str(), &end);
            if (end != value.c_str() && !std::isfinite(number)) {
              return "must be a finite number, not '" + value + "'";
            }
            return {};
          },
          "", "finite");
    }
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) refuse_wrapped_and_non_finite_numbers(*sub);
}

std::string version_text() {
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(library, &length);
  std::string mpi(library, static_cast<std::size_t>(std::max(length, 0)));
  mpi = mpi.substr(0, mpi.find_first_of(",\n"));
  return std::string("hpcdb ") + HPCDB_VERSION + "\nMPI library: " + mpi;
}

}  // namespace hpcdb
