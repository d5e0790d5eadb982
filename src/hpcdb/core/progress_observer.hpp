#pragma once
// Where an operator's progress goes while a watchdog looks after the job
// (net/progress_guard.hpp): phase starts (PhaseClock reports them) and marks
// of progress within a phase. An operator does not know whether anyone
// watches; the watchdog installs itself as the observer of the thread that
// runs the operator for as long as it watches (ProgressScope), the way a
// logging context is installed: per thread, for a scope, never global.
#include <string>

namespace hpcdb {

class ProgressObserver {
 public:
  virtual ~ProgressObserver() = default;
  virtual void phase_started(const std::string& name) = 0;
  virtual void progressed() = 0;
};

namespace detail {
inline ProgressObserver*& thread_progress_observer() {
  thread_local ProgressObserver* observer = nullptr;
  return observer;
}
}  // namespace detail

// Installs `observer` for the calling thread while the scope lives.
class ProgressScope {
 public:
  explicit ProgressScope(ProgressObserver& observer) : previous_(detail::thread_progress_observer()) {
    detail::thread_progress_observer() = &observer;
  }
  ~ProgressScope() { detail::thread_progress_observer() = previous_; }
  ProgressScope(const ProgressScope&) = delete;
  ProgressScope& operator=(const ProgressScope&) = delete;

 private:
  ProgressObserver* previous_;
};

inline void report_phase_start(const std::string& name) {
  if (ProgressObserver* o = detail::thread_progress_observer()) o->phase_started(name);
}

// A step of a long phase is done (cheap: call it per chunk or block).
inline void report_progress() {
  if (ProgressObserver* o = detail::thread_progress_observer()) o->progressed();
}

}  // namespace hpcdb
