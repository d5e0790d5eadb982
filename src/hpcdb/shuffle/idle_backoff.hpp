#pragma once
// What a worker does when a poll found nothing: spin briefly, then yield the
// core (a rank that spins keeps the peer it waits for off a shared CPU).
#include <sched.h>

namespace hpcdb {

class IdleBackoff {
 public:
  void idle() {
    if (++idle_polls_ >= kSpins) {
      sched_yield();
      idle_polls_ = 0;
    }
  }
  void busy() { idle_polls_ = 0; }

 private:
  static constexpr unsigned kSpins = 64;
  unsigned idle_polls_ = 0;
};

}  // namespace hpcdb
