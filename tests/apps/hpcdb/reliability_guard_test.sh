#!/usr/bin/env bash
# A rank that stops (SIGSTOP from outside, or a testing aid that makes it hang)
# must end every rank within seconds, with a message that names it and a
# non-zero exit, instead of hanging the job.
# Usage: reliability_guard_test.sh path/to/hpcdb
# ctest-timeout: 2700
set -u
hpcdb=$1
work=$(mktemp -d)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
passed=0
failed=0
job=
cleanup() {
  [ -n "$job" ] && kill -9 "$job" 2> /dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# The pid of world rank RANK among the processes mpirun (pid MPIRUN) started.
pid_of_rank() {
  local mpirun=$1 rank=$2 p
  for p in $(pgrep -P "$mpirun"); do
    if tr '\0' '\n' < "/proc/$p/environ" 2> /dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$rank"; then
      echo "$p"
      return
    fi
  done
}

# Whether process PID holds a UDP socket (the watchdog's: it is watched then).
has_udp_socket() {
  local inodes fd
  inodes=$(awk 'NR > 1 {print $10}' "/proc/$1/net/udp" 2> /dev/null)
  for fd in /proc/"$1"/fd/*; do
    case $(readlink "$fd" 2> /dev/null) in
      socket:\[*\])
        local inode
        inode=$(readlink "$fd" | tr -dc 0-9)
        if grep -qx "$inode" <<< "$inodes"; then return 0; fi ;;
    esac
  done
  return 1
}

# shellcheck source=../../reaper.sh
. "$(dirname "$0")/../../reaper.sh"

# Each LIMIT below is the detection time that the job's options set (a
# timeout, three times it for a watchdog) plus a few seconds; every case may
# take MARGIN seconds more, for the teardown of every rank on a loaded machine.
# A job that does not end by itself is killed 60 s after that and fails.
margin=${MARGIN:-15}

# verdict NAME RC SECONDS LIMIT REGEX: non-zero exit within LIMIT + MARGIN s, REGEX on stderr.
verdict() {
  local name=$1 rc=$2 seconds=$3 limit=$4 regex=$5
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 137 ] && [ "$seconds" -le $((limit + margin)) ] && grep -Eq -e "$regex" "$work/err"; then
    passed=$((passed + 1))
    echo "ok   $name (exit $rc after $seconds s; limit $limit + $margin s)"
  else
    failed=$((failed + 1))
    echo "FAIL $name (exit $rc after $seconds s, limit $limit + $margin s); stderr:"
    sed 's/^/     /' "$work/err" | head -20
  fi
}

# expect_stopped_named NAME RANKS STOP_RANK DELAY LIMIT REGEX ARGS...: runs
# hpcdb ARGS on RANKS ranks, sends SIGSTOP to STOP_RANK after DELAY s, and
# expects the job to end within LIMIT s of the stop, naming the rank.
expect_stopped_named() {
  local name=$1 ranks=$2 stop_rank=$3 delay=$4 limit=$5 regex=$6
  shift 6
  # Emptied before the job starts: its shell truncates them only once it
  # runs, and a line of the case before must not be read as this job's.
  : > "$work/out"
  : > "$work/err"
  mpirun --oversubscribe --bind-to none -np "$ranks" "$hpcdb" "$@" > "$work/out" 2> "$work/err" &
  job=$!
  sleep "$delay"
  local victim
  victim=$(pid_of_rank "$job" "$stop_rank")
  if [ -z "$victim" ]; then
    failed=$((failed + 1))
    echo "FAIL $name: rank $stop_rank not found (the job ended before the stop?)"
    sed 's/^/     /' "$work/err" | head -20
    kill "$job" 2> /dev/null
    wait "$job"
    job=
    return
  fi
  # Not before its watchdog is up: a rank stopped inside MPI_Init is beyond any guard.
  local tries=0
  while [ -n "${WAIT_FOR_WATCHDOG:-}" ] && ! has_udp_socket "$victim" && [ $tries -lt 600 ]; do
    sleep 0.1
    tries=$((tries + 1))
  done
  kill -STOP "$victim"
  local start=$SECONDS
  # Whatever happens, nothing outlives this test: the victim is killed after a generous limit.
  start_reaper $((limit + margin + 60)) "$victim" "$job"
  wait "$job"
  local rc=$?
  local seconds=$((SECONDS - start))
  job=
  stop_reaper
  kill -9 "$victim" 2> /dev/null
  verdict "$name" "$rc" "$seconds" "$limit" "$regex"
}

# expect_stopped_when NAME RANKS STOP_RANK PATTERN LIMIT REGEX ARGS...: like
# expect_stopped_named, but stops the rank once PATTERN appears on standard
# output (the job is surely running then, whatever the machine's load).
expect_stopped_when() {
  local name=$1 ranks=$2 stop_rank=$3 pattern=$4 limit=$5 regex=$6
  shift 6
  # Emptied before the job starts: its shell truncates them only once it
  # runs, and a line of the case before must not be read as this job's.
  : > "$work/out"
  : > "$work/err"
  mpirun --oversubscribe --bind-to none -np "$ranks" "$hpcdb" "$@" > "$work/out" 2> "$work/err" &
  job=$!
  local waited=0
  until grep -q -e "$pattern" "$work/out" 2> /dev/null || [ $waited -ge 600 ] || ! kill -0 "$job" 2> /dev/null; do
    sleep 0.1
    waited=$((waited + 1))
  done
  local victim
  victim=$(pid_of_rank "$job" "$stop_rank")
  if [ -z "$victim" ]; then
    failed=$((failed + 1))
    echo "FAIL $name: rank $stop_rank not found (the job ended before the stop?)"
    sed 's/^/     /' "$work/err" | head -20
    kill "$job" 2> /dev/null
    wait "$job"
    job=
    return
  fi
  kill -STOP "$victim"
  local start=$SECONDS
  start_reaper $((limit + margin + 60)) "$victim" "$job"
  wait "$job"
  local rc=$?
  local seconds=$((SECONDS - start))
  job=
  stop_reaper
  kill -9 "$victim" 2> /dev/null
  verdict "$name" "$rc" "$seconds" "$limit" "$regex"
}

# expect_fails_named NAME RANKS LIMIT REGEX ARGS...: the job (with a testing
# aid, --fail-rank, that makes a rank stop or hang) ends within LIMIT s of the
# moment that rank says it fails, naming it. Timed from that moment, not from
# the start, so that a slow start on a loaded machine does not count.
expect_fails_named() {
  local name=$1 ranks=$2 limit=$3 regex=$4
  shift 4
  # Emptied before the job starts: its shell truncates them only once it
  # runs, and a line of the case before must not be read as this job's.
  : > "$work/out"
  : > "$work/err"
  mpirun --oversubscribe --bind-to none -np "$ranks" "$hpcdb" "$@" > "$work/out" 2> "$work/err" &
  job=$!
  local waited=0
  until grep -Eq "is (stopping|hanging) now" "$work/err" 2> /dev/null || [ $waited -ge 1200 ] ||
    ! kill -0 "$job" 2> /dev/null; do
    sleep 0.1
    waited=$((waited + 1))
  done
  local start=$SECONDS
  start_reaper $((limit + margin + 60)) "$job"
  wait "$job"
  local rc=$?
  local seconds=$((SECONDS - start))
  job=
  stop_reaper
  if ! grep -Eq "is (stopping|hanging) now" "$work/err"; then
    failed=$((failed + 1))
    echo "FAIL $name: the rank never failed (exit $rc); stderr:"
    sed 's/^/     /' "$work/err" | head -20
    return
  fi
  verdict "$name" "$rc" "$seconds" "$limit" "$regex"
}

# --- transactions: a transaction agent that stops (holding locks or not:
# between transactions, pausing before a retry, measuring round trips) is
# named by the lock agent within --reply-timeout, long before --duration ends.
# The ranks stop themselves (--fail-how stop raises SIGSTOP) at a known point
# of the run, whatever the machine's load; one case stops a rank from outside.
stopped_txn_agent() {
  echo "transaction agent rank $1 (holds locks at lock agent rank 0 but has sent nothing|has sent nothing to lock agent rank 0) for ${2:-2} s"
}
stopped_in_guard() {
  echo "rank $1 has given no sign of life for $2 s during the txn command \\(last seen in its $3 phase\\)"
}
expect_fails_named txn_stopped_txn_agent 2 6 "$(stopped_txn_agent 1)" \
  txn --duration 40 --reply-timeout 2 --fail-rank 1 --fail-how stop --fail-after 1
# With the default --reply-timeout (5 s): within 10 s of the stop.
expect_fails_named txn_stopped_txn_agent_default_timeout 2 10 "$(stopped_txn_agent 1 5)|$(stopped_in_guard 1 5 '[a-z-]+')" \
  txn --duration 40 --fail-rank 1 --fail-how stop --fail-after 1
expect_fails_named txn_stopped_txn_agent_3_ranks 3 6 "$(stopped_txn_agent 2)" \
  txn --duration 40 --reply-timeout 2 --cc wait-die --fail-rank 2 --fail-how stop --fail-after 1
# Stopped during the round-trip measurement before the run (many pings) and
# while pausing between retries (long back-offs): no lock held, still named.
expect_fails_named txn_stopped_while_measuring 3 6 "$(stopped_txn_agent 2)" \
  txn --duration 40 --reply-timeout 2 --pings 100000000 --fail-rank 2 --fail-how stop --fail-after 1
expect_fails_named txn_stopped_in_backoff 3 6 "$(stopped_txn_agent 2)" \
  txn --duration 40 --reply-timeout 2 --cc no-wait --locks-per-agent 20 --backoff 2000 --fail-rank 2 --fail-how stop \
  --fail-after 1
expect_fails_named txn_hung_txn_agent 3 6 "$(stopped_txn_agent 2)" \
  txn --duration 40 --reply-timeout 2 --fail-rank 2 --fail-after 1 --fail-how hang
# A transaction agent waiting for a stopped lock agent (for its answer, or
# for room in its mailbox) names that one; the other lock agent, where it
# holds locks, keeps hearing from it meanwhile. An agent that does not need
# the stopped one soon (still measuring round trips with the other) leaves
# it to the watchdog, after three times --reply-timeout.
expect_fails_named txn_stopped_lock_agent 4 8 \
  "lock agent rank 1 (did not answer within 2 s|has taken none of this transaction agent's messages for 2 s)|$(stopped_in_guard 1 6 run)" \
  txn --duration 40 --lock-agents 2 --reply-timeout 2 --pings 10 --fail-rank 1 --fail-how stop --fail-after 1
# Start-up and finish: a rank that stops or hangs before the data is loaded,
# or before the results are gathered, is named by the watchdog (silent for
# --reply-timeout; in the run's last moments the agents' own limit counts,
# three times that; a hang once the others have moved on for five times it).
expect_fails_named txn_stopped_in_start_up 3 6 "$(stopped_in_guard 2 2 "[a-z-]+")" \
  txn --workload tpcc --warehouses 2 --duration 40 --reply-timeout 2 --fail-rank 2 --fail-how stop --fail-during start-up
expect_fails_named txn_lock_agent_stopped_in_start_up 3 6 "$(stopped_in_guard 0 2 "[a-z-]+")" \
  txn --duration 40 --reply-timeout 2 --fail-rank 0 --fail-how stop --fail-during start-up
expect_fails_named txn_hung_in_start_up 3 16 \
  "rank 1 made no progress for [0-9]+ s in its plan phase of the txn command while the other ranks wait in load: it hangs" \
  txn --duration 40 --reply-timeout 2 --fail-rank 1 --fail-how hang --fail-during start-up
expect_fails_named txn_stopped_in_finish 3 10 "$(stopped_in_guard 2 6 run)" \
  txn --duration 1 --reply-timeout 2 --fail-rank 2 --fail-how stop --fail-during finish
expect_fails_named txn_lock_agent_hung_in_finish 3 16 \
  "rank 0 made no progress for [0-9]+ s in its run phase of the txn command while the other ranks wait in results: it hangs" \
  txn --duration 1 --reply-timeout 2 --fail-rank 0 --fail-how hang --fail-during finish
# SIGSTOP from outside at whatever point the job has reached (the start-up on
# a loaded machine, the run on a quiet one): the rank is named either way.
# A lock agent stopped from outside while it loads 40 TPC-C warehouses (many
# seconds): the previous build waited for it until killed.
WAIT_FOR_WATCHDOG=1 expect_stopped_named txn_sigstop_while_loading 3 0 1 8 \
  "$(stopped_in_guard 0 2 '[a-z-]+')|lock agent rank 0 did not answer within 2 s" \
  txn --workload tpcc --warehouses 40 --duration 1 --reply-timeout 2
WAIT_FOR_WATCHDOG=1 expect_stopped_named txn_sigstop_from_outside 3 1 2 8 "$(stopped_txn_agent 1)|$(stopped_in_guard 1 2 '[a-z-]+')" \
  txn --duration 40 --reply-timeout 2

# --- joins: a rank stopped from outside in the middle of a run, or stopping,
# hanging (its threads alive, no progress) or dying on its own, ends every
# rank within seconds with a message naming it.
expect_stopped_when join_radix_sigstop 3 1 "run 1/" 8 \
  "rank 1 has given no sign of life for 2 s during the join" \
  join --inner 4M --outer 4M --repeat 1000 --progress-timeout 2
# With the default --progress-timeout (5 s), a stopped rank ends the job within 10 s of the stop.
expect_stopped_when join_radix_sigstop_default_timeout 2 1 "run 1/" 10 \
  "rank 1 has given no sign of life for 5 s during the join" \
  join --inner 4M --outer 4M --repeat 1000
expect_fails_named join_radix_stops_itself 3 10 \
  "rank 2 has given no sign of life for 2 s during the join \\(last seen in its [a-z_-]+ phase\\)" \
  join --inner 1M --outer 1M --repeat 100000 --progress-timeout 2 --fail-rank 2 --fail-after 1 --fail-how stop
expect_fails_named join_radix_hangs 3 12 \
  "rank 1 made no progress for [0-9]+ s in its [a-z_-]+ phase of the join while the other ranks wait in [a-z_-]+: it hangs" \
  join --inner 1M --outer 1M --repeat 100000 --progress-timeout 1 --fail-rank 1 --fail-after 1 --fail-how hang
expect_fails_named join_sort_merge_stops_itself 2 10 "rank 0 has given no sign of life for 2 s during the join" \
  join --algorithm sort-merge --inner 1M --outer 1M --repeat 100000 --progress-timeout 2 --fail-rank 0 --fail-after 1
expect_fails_named join_cyclo_stops_itself 3 10 "rank 1 has given no sign of life for 2 s during the join" \
  join --algorithm cyclo --inner 1M --outer 1M --repeat 100000 --progress-timeout 2 --fail-rank 1 --fail-after 1
expect_fails_named join_broadcast_hangs 3 12 "rank 2 made no progress for [0-9]+ s in its [a-z_-]+ phase of the join" \
  join --algorithm broadcast --inner 1M --outer 1M --repeat 100000 --progress-timeout 1 --fail-rank 2 --fail-after 1 \
  --fail-how hang

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
