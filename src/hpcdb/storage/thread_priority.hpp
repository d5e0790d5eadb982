#pragma once
// The scheduling class of a bulk operator's threads (scans, star joins).
// With priorities on they run in Linux's idle class (SCHED_IDLE), so that a
// thread serving latency-sensitive work (point queries, the network
// threads) takes the core the moment it wakes: the scheduler preempts an
// idle-class thread for any normal one at once, whereas a bulk thread of
// normal class, even at nice 10, keeps the core to the end of its slice or
// the next scheduler tick (4 ms at HZ=250), which is what a point query's
// tail waited for. Lowering a thread's class needs no privilege.
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace hpcdb {

// Moves the calling thread to the idle scheduling class; the threads it
// starts inherit it. Best effort: a refusal leaves the thread as it was.
inline void run_in_background() {
  sched_param none{};
  (void)sched_setscheduler(static_cast<pid_t>(syscall(SYS_gettid)), SCHED_IDLE, &none);
}

}  // namespace hpcdb
