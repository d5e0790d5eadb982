#!/usr/bin/env bash
# A failure inside a running join (a testing aid makes one rank fail in a
# named phase, in a worker thread when the phase runs several) must end
# every rank within seconds with exit 1 and the failing rank's message,
# never unwind into collectives or barriers its peers never reach (a hang).
# Usage: join_failure_test.sh path/to/hpcdb
# ctest-ranks: 2 3
# ctest-timeout: 2700
set -u
hpcdb=$1
ranks=${RANKS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe --bind-to none -np "$ranks")
# Seconds from mpirun's start to the end of every rank: the data takes about
# 1 s on a quiet machine, the limit leaves ample room for a loaded one (each
# case reports its time); a hang is killed 30 s later and fails.
limit=90
passed=0
failed=0

verdict() {  # verdict NAME OK
  if [ "$2" = yes ]; then
    passed=$((passed + 1))
    echo "ok   $1"
  else
    failed=$((failed + 1))
    echo "FAIL $1"
    tail -n 15 "$work/err" | sed 's/^/     /'
  fi
}

# fails_in NAME RANK PHASE ARGS...: `hpcdb join ARGS --fail-rank RANK
# --fail-phase PHASE` exits 1 within the limit, naming rank and phase.
fails_in() {
  local name=$1 rank=$2 phase=$3
  shift 3
  local start=$SECONDS
  timeout $((limit + 30)) "${mpirun[@]}" "$hpcdb" join "$@" --fail-rank "$rank" --fail-phase "$phase" \
    > "$work/out" 2> "$work/err"
  local rc=$? seconds=$((SECONDS - start))
  echo "     ($name: exit $rc after $seconds s)"
  if [ $rc -eq 1 ] && [ $seconds -le $limit ] &&
     grep -q "error (rank $rank): injected failure in phase $phase on rank $rank" "$work/err"; then
    verdict "$name" yes
  else
    verdict "$name" no
  fi
}

# refused NAME REGEX ARGS...: exit 2, REGEX on standard error.
refused() {
  local name=$1 regex=$2
  shift 2
  timeout 300 "${mpirun[@]}" "$hpcdb" join "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  if [ $rc -eq 2 ] && grep -Eq -e "$regex" "$work/err"; then verdict "$name" yes; else verdict "$name" no; fi
}

last=$((ranks - 1))
size=(--inner 400K --outer 600K)

# --- every phase of every operator, the last rank or rank 0 failing
for phase in setup histogram window_allocation network_partition network_wait build_probe; do
  fails_in "radix_$phase" "$last" "$phase" "${size[@]}"
done
fails_in radix_scheduled_network_exchange 0 network_exchange "${size[@]}" --schedule synchronized
fails_in radix_messages_network_exchange "$last" network_exchange "${size[@]}" --schedule random --exchange messages
for phase in setup partition window_allocation sort sort_wait merge match; do
  fails_in "sort_merge_$phase" "$last" "$phase" --algorithm sort-merge "${size[@]}"
done
for phase in setup sort distribute end; do
  fails_in "cyclo_$phase" 0 "$phase" --algorithm cyclo "${size[@]}"
  fails_in "broadcast_$phase" "$last" "$phase" --algorithm broadcast "${size[@]}"
done
fails_in broadcast_udp_distribute 0 distribute --algorithm broadcast --transport udp "${size[@]}"

# --- in a worker thread while the rank's other workers wait for it (every
# key in one partition, owned by rank 0 and joined by both its threads over barriers)
fails_in radix_threads_heavy_partition 0 build_probe "${size[@]}" --threads 2 --key-spacing 8
fails_in radix_threads_network_partition 0 network_partition "${size[@]}" --threads 2
fails_in sort_merge_threads_sort "$last" sort --algorithm sort-merge "${size[@]}" --threads 2
fails_in sort_merge_threads_match 0 match --algorithm sort-merge "${size[@]}" --threads 2

# --- the testing aid's own options
refused fail_phase_unknown "--fail-phase must be a phase of this join: setup, sort, distribute, end" \
  --algorithm cyclo --inner 1000 --fail-rank 0 --fail-phase merge
refused fail_rank_outside "--fail-rank $ranks names no rank: this job has ranks 0 to $last" --inner 1000 --fail-rank "$ranks" --fail-phase histogram
refused fail_phase_alone "--fail-phase needs --fail-rank" --inner 1000 --fail-phase histogram

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
