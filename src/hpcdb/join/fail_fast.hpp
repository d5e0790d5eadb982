#pragma once
// A failure inside a running join is seen by one rank while its peers wait
// for it in collectives and its own worker threads may wait for each other
// at barriers: unwinding would block in collective destructors (freeing a
// window or a communicator) or in joining those threads. So the rank ends
// the whole job at once, naming itself and the failure (Cluster::fail), as
// the transaction engine does; usage errors exit 2, others 1.
#include <exception>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

template <class Step>
void fail_fast(const Cluster& cluster, Step&& step) {
  try {
    step();
  } catch (const UsageError& e) {
    cluster.fail(e.what(), 2);
  } catch (const std::exception& e) {
    cluster.fail(e.what(), 1);
  } catch (...) {
    cluster.fail("unknown error", 1);
  }
}

// run_on_threads() for a running join: a worker's failure ends the job from
// that worker, instead of being rethrown once every other worker has
// finished (which a worker waiting for it at a barrier never does).
template <class Body>
void run_workers(const Cluster& cluster, unsigned threads, Body&& body) {
  run_on_threads(threads, [&](unsigned t) { fail_fast(cluster, [&] { body(t); }); });
}

}  // namespace hpcdb
