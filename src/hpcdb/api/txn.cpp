#include "hpcdb/api/txn.hpp"

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/progress_guard.hpp"

namespace hpcdb {

void validate(const TxnRequest& request, int ranks) {
  const InjectedFailure& failure = request.engine.failure;
  if (failure.rank < -1) throw UsageError("--fail-rank must be a rank (0 or more), or -1 for none");
  if (failure.rank >= ranks) {
    throw UsageError("--fail-rank " + std::to_string(failure.rank) + " names no rank: this job has ranks 0 to " +
                     std::to_string(ranks - 1));
  }
}

TxnRunResult run_transactions(const Cluster& cluster, const TxnRequest& request) {
  run_collectively(cluster.world(), [&] {
    validate(request, cluster.size());
    if (cluster.rank() == 0) {
      check_output_path(request.report_file, "JSON file");
      if (!request.engine.trace_out_dir.empty()) {
        prepare_output_directory(request.engine.trace_out_dir, "lock trace directory");
      }
    }
  });
  // From here on no rank waits forever for a peer that stops or hangs: in the
  // run the agents notice it themselves (--reply-timeout, naming what it did
  // last), in the start-up and the finish a watchdog does (the same timeout).
  ProgressGuardConfig watched;
  watched.timeout_seconds = static_cast<double>(request.engine.reply_timeout_ns) * 1e-9;
  watched.operation = "txn command";
  watched.timeout_option = "--reply-timeout";
  watched.self_guarded_phase = "run";
  const ProgressGuard guard(cluster, watched);
  return run_txn_engine(cluster, request.engine);
}

}  // namespace hpcdb
