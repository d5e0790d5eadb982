#pragma once
// How a join phase runs its work on worker threads, handed to the phase
// explicitly: the timed run's runner (JoinRun: a worker's failure ends the
// job from that worker, an injected failure fires in the last worker), or
// plain threads, as a test that calls one phase alone uses.
#include <functional>

#include "hpcdb/core/worker_team.hpp"

namespace hpcdb {

class WorkerRunner {
 public:
  virtual ~WorkerRunner() = default;
  // body(t) for t = 0 .. threads - 1, one thread each; returns when all are done.
  virtual void run_workers(unsigned threads, const std::function<void(unsigned)>& body) = 0;
};

// Plain threads: a worker's exception is rethrown once every worker is done.
class PlainWorkers final : public WorkerRunner {
 public:
  void run_workers(unsigned threads, const std::function<void(unsigned)>& body) override {
    run_on_threads(threads, body);
  }
};

}  // namespace hpcdb
