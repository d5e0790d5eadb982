#!/usr/bin/env bash
# A Python program under mpirun whose rank stops, dies or is interrupted must
# end every rank within seconds, non-zero, with a message naming the rank:
# stopped inside a call or between two calls (the program's watch, which
# HPCDB_PROGRESS_TIMEOUT sets), killed, or Ctrl-C at mpirun.
# Usage: python_guard_test.sh path/to/hpcdb (RANKS, HPCDB_PYTHON: the project's .venv Python)
# ctest-ranks: 3
# ctest-sanitized-ranks: none
# ctest-timeout: 600
set -u
package=$(cd "$(dirname "$1")" && pwd)/python
python=${HPCDB_PYTHON:-}
if ! [ -f "$package/hpcdb/__init__.py" ]; then
  echo "skipped: this build has no Python package (sanitizer builds leave it out)"
  exit 77
fi
if [ -z "$python" ] || ! "$python" -c 'import pyarrow' 2> /dev/null; then
  echo "skipped: no Python with pyarrow (make build installs it into .venv)"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../reaper.sh
. "$here/../reaper.sh"
export PYTHONPATH="$package" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ranks=${RANKS:-3}
last=$((ranks - 1))
work=$(mktemp -d)
job=
victim=
cleanup() {
  [ -n "$job" ] && kill -9 "$job" 2> /dev/null
  [ -n "$victim" ] && kill -9 "$victim" 2> /dev/null
  rm -rf "$work"
}
trap cleanup EXIT
# The detection time a case allows (a timeout of 2 s, twice for the watch's
# own speaker), plus MARGIN seconds for the teardown on a loaded machine.
margin=${MARGIN:-20}
passed=0
failed=0

# start MODE: the job in the background; waits until a rank says PATTERN.
start() {
  local mode=$1 pattern=$2
  : > "$work/out"  # emptied first: a line of the case before is not this job's
  : > "$work/err"
  mpirun --oversubscribe --bind-to none -np "$ranks" -x HPCDB_PROGRESS_TIMEOUT=2 \
    "$python" "$here/guard_job.py" "$mode" > "$work/out" 2> "$work/err" &
  job=$!
  local waited=0
  until grep -q -e "$pattern" "$work/err" 2> /dev/null || [ $waited -ge 1200 ] || ! kill -0 "$job" 2> /dev/null; do
    sleep 0.1
    waited=$((waited + 1))
  done
  # Lines of several ranks may run together on mpirun's standard error.
  victim=$(grep -o "rank $last pid [0-9]*" "$work/err" | head -1 | sed 's/.* //')
}

# finish NAME LIMIT REGEX: the job ends non-zero by itself within LIMIT +
# MARGIN s (from now), REGEX on its standard error (mpirun's exit code is 137
# when a rank was killed; a job that does not end is killed long after the
# limit, and fails by its time).
finish() {
  local name=$1 limit=$2 regex=$3 begin=$SECONDS
  start_reaper $((limit + margin + 60)) "$job"
  wait "$job"
  local rc=$? seconds=$((SECONDS - begin))
  job=
  stop_reaper
  [ -n "$victim" ] && kill -9 "$victim" 2> /dev/null
  victim=
  sleep 0.5
  local left
  left=$(pgrep -f "guard_job.py" | tr '\n' ' ')
  if [ -n "$left" ]; then
    failed=$((failed + 1))
    echo "FAIL $name: ranks left running after mpirun ended (pids $left)"
    kill -9 $left 2> /dev/null
    return
  fi
  if [ "$rc" -ne 0 ] && [ "$seconds" -le $((limit + margin)) ] && grep -Eq -e "$regex" "$work/err"; then
    passed=$((passed + 1))
    echo "ok   $name (exit $rc after $seconds s; limit $limit + $margin s)"
  else
    failed=$((failed + 1))
    echo "FAIL $name (exit $rc after $seconds s, limit $limit + $margin s); stderr:"
    sed 's/^/     /' "$work/err" | head -20
  fi
}

silent="rank $last has given no sign of life for 2 s during the"

# Stopped between two calls: the others wait in the next call's first
# collective, where only the program's watch sees the silence.
start stop-between-calls "failing now"
# (The phase named is that of its last heartbeat, which may be of the call before.)
finish stopped_between_calls 4 "$silent Python program \\(last seen in its [a-z ._]+ phase\\)"

# Stopped from outside wherever it is (inside a join or between two).
start loop "rank $last pid [0-9]* looping"
sleep 1
[ -n "$victim" ] && kill -STOP "$victim"
finish stopped_from_outside 4 "$silent (join|Python program)"

# Killed: mpirun sees a process exit and ends the job.
start kill-between-calls "failing now"
finish killed_between_calls 2 "process rank $last .* exited on signal 9"
start loop "rank $last pid [0-9]* looping"
sleep 1
[ -n "$victim" ] && kill -9 "$victim"
finish killed_from_outside 2 "process rank $last .* exited on signal 9"

# Ctrl-C at mpirun: every rank ends (mpirun says nothing).
start loop "rank $last pid [0-9]* looping"
sleep 1
kill -INT "$job"
finish interrupted 2 ""

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
