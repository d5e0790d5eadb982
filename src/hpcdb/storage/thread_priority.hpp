#pragma once
// The scheduling weight of the calling thread: bulk operators (scans, star
// joins) run at a lower priority than those that serve latency-sensitive
// work (point queries, the network threads), so that a point query's
// threads get a core as soon as they wake, however busy the scans keep the
// machine. Linux sets a nice value per thread; raising it needs no
// privilege.
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace hpcdb {

// Sets the calling thread's nice value (0: normal; higher: yields the CPU to
// normal threads). Best effort: a refusal leaves the thread as it was.
inline void set_thread_niceness(int nice) {
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  (void)setpriority(PRIO_PROCESS, tid, nice);
}

}  // namespace hpcdb
