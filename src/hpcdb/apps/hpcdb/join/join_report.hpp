#pragma once
// How `hpcdb join` shows its results: a summary for people and JSON for
// programs, from the request and what the library's run_join returned.
#include <nlohmann/json.hpp>

#include <ostream>

#include "hpcdb/api/join.hpp"

namespace hpcdb {

nlohmann::ordered_json run_to_json(const JoinRequest& request, const JoinOutcome& outcome, unsigned repetition);

// The header (before the first run's line), one run, the payload fetch, the summary after all runs.
void print_header(std::ostream& out, const JoinRequest& request, const JoinOutcome& outcome);
void print_run(std::ostream& out, const JoinOutcome& outcome, unsigned repetition, unsigned repeat);
void print_payloads(std::ostream& out, const JoinOutcome& outcome, std::size_t payload_width);
void print_summary(std::ostream& out, const JoinOutcome& outcome);

}  // namespace hpcdb
