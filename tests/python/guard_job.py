"""A job for python_guard_test.sh: joins under mpirun while the last rank
fails in the way MODE names.

  stop-between-calls  the last rank stops itself (SIGSTOP) between two joins
  kill-between-calls  the last rank kills itself (SIGKILL) between two joins
  loop                every rank joins again and again (the test stops or
                      kills a rank, or interrupts mpirun, from outside)

Each rank says on standard error when it reaches the point (with its pid)."""
import os
import signal
import sys

import pyarrow as pa

import hpcdb


def tables(rows):
    rank = hpcdb.rank()
    keys = pa.array(range(rank, rows * hpcdb.size(), hpcdb.size()), pa.int64())
    left = pa.table({"id": keys, "a": keys})
    right = pa.table({"id": keys, "b": pa.array([str(k) for k in keys.to_pylist()])})
    return left, right


def say(what):
    print(f"rank {hpcdb.rank()} pid {os.getpid()} {what}", file=sys.stderr, flush=True)


def main(mode):
    left, right = tables(20000)
    hpcdb.join(left, right, on="id", progress_timeout=2)
    last = hpcdb.rank() == hpcdb.size() - 1
    if mode == "loop":
        say("looping")
        while True:
            hpcdb.join(left, right, on="id", progress_timeout=2)
    if last:
        say("failing now")
        os.kill(os.getpid(), signal.SIGSTOP if mode == "stop-between-calls" else signal.SIGKILL)
    hpcdb.join(left, right, on="id", progress_timeout=2)
    say("joined after the failure (wrong: the job should have ended)")


if __name__ == "__main__":
    main(sys.argv[1])
