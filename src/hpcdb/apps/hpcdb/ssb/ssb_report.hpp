#pragma once
// The results of an `hpcdb ssb` run as one JSON document (rank 0, from every
// rank's numbers) and as text: queries per hour and latency percentiles per
// flight, point-query latencies, the storage engines' scans and what they
// sent (and saved with tuple-free results), the query engines' joins, bytes
// moved between ranks.
#include <nlohmann/json.hpp>

#include "hpcdb/apps/hpcdb/ssb/ssb_options.hpp"
#include "hpcdb/api/ssb_summary.hpp"

namespace hpcdb {

nlohmann::ordered_json ssb_document(const SsbOptions& options, const SsbRequest& run, const Deployment& deployment,
                                    const SsbGathered& gathered);
void print_ssb_report(const nlohmann::ordered_json& document);

}  // namespace hpcdb
