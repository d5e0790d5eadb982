#!/usr/bin/env bash
# ThreadSanitizer run: the unit tests of threaded code, the joins' MPI tests
# with worker threads and node-shared task lists on 1 and 2 ranks, and the
# message layer's suite (network threads beside the callers' threads,
# MPI_THREAD_MULTIPLE) on 2 and 3 ranks.
# Open MPI and UCX are not instrumented: their internals are suppressed
# (scripts/tsan.supp), our code is not.
# Usage: scripts/tsan.sh BUILD_DIR GTEST_NAME_REGEX
set -uo pipefail
build=$1
names=$2
root=$(cd "$(dirname "$0")/.." && pwd)
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$root/scripts/tsan.supp"
# UCX's memory hooks (libucm) intercept madvise, which glibc calls as a thread
# exits, after ThreadSanitizer has torn the thread's state down: a crash in
# UCX, not in our code. The hooks serve registration caches for RDMA NICs,
# which this run does not use. Open MPI's own hooks (its memory patcher) call
# into UCX's the same way: off too.
export UCX_MEM_EVENTS=no UCX_MEM_MMAP_HOOK_MODE=none OMPI_MCA_memory=^patcher
# A message a rank sends to itself is copied out of the sender's buffer by
# Open MPI's loopback transport (mca_btl_self.so) in the receiving thread, and
# the send's completion reaches the sending thread through Open MPI's own
# atomics: ThreadSanitizer would see the copy, not the ordering. The copies
# made by that component are suppressed (tsan.supp); Open MPI unloads its
# components at MPI_Finalize, and a suppressed library must stay loaded, so
# it is preloaded into every MPI process of the run.
self_btl="$(ompi_info --path pkglibdir --parsable | sed 's/^path:pkglibdir://')/mca_btl_self.so"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
filter=$(python3 - "$build/tests/hpcdb_unit_tests" "$names" <<'PY'
import re, subprocess, sys
out = subprocess.run([sys.argv[1], "--gtest_list_tests"], capture_output=True, text=True).stdout
suite, names = None, []
for line in out.splitlines():
    if not line.startswith(" "):
        suite = line.strip().split()[0]
    else:
        name = suite + line.strip().split()[0]
        if re.search(sys.argv[2], name):
            names.append(name)
print(":".join(names) or "NONE")
PY
)
status=0
echo "tsan: unit tests matching '$names'"
"$build/tests/hpcdb_unit_tests" --gtest_filter="$filter" --gtest_brief=1 || status=1
mpi_filter=$(echo "$names" | sed 's/|/*:*/g')
for ranks in 1 2; do
  echo "tsan: MPI tests matching '$names' on $ranks rank(s)"
  mpirun --oversubscribe --bind-to none -np "$ranks" -x LD_PRELOAD="$self_btl" "$build/tests/hpcdb_mpi_tests" --gtest_filter="*$mpi_filter*" \
    --gtest_brief=1 || status=1
done
for ranks in 2 3; do
  echo "tsan: threaded MPI tests on $ranks ranks"
  mpirun --oversubscribe --bind-to none -np "$ranks" -x LD_PRELOAD="$self_btl" "$build/tests/hpcdb_threaded_mpi_tests" \
    --gtest_brief=1 || status=1
done
exit $status
