#!/usr/bin/env bash
# Outputs on a full file system (a 1 MiB tmpfs, mounted here): every rank
# ends with exit 1 and a message naming the file and the reason, within
# 10 s, and neither the file nor a temporary one is left (an older file of
# the same name stays as it was).
# Usage: full_filesystem_test.sh path/to/hpcdb   (RANKS=...; needs root)
# ctest-ranks: 1 2 3
# ctest-timeout: 900
set -u
hpcdb=$1
ranks=${RANKS:-2}
mnt=$(mktemp -d)
if [ "$(id -u)" -ne 0 ] || ! mount -t tmpfs -o size=1M tmpfs "$mnt" 2> /dev/null; then
  rmdir "$mnt"
  echo "skipped: needs root to mount a small tmpfs"
  exit 77
fi
trap 'umount "$mnt"; rmdir "$mnt"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe --bind-to none -np "$ranks")
passed=0
failed=0
err=$(mktemp)
wrap=()  # a command the job runs under (a mount namespace with a small /dev/shm)

# expect_exit NAME CODE REGEX ARGS... : exit CODE, REGEX on stderr, within 30 s of mpirun's start (ample for a loaded machine; each case reports its time)
expect_exit() {
  local name=$1 code=$2 regex=$3
  shift 3
  local start end rc seconds
  start=$(date +%s%N)
  timeout 300 "${wrap[@]}" "${mpirun[@]}" "$hpcdb" "$@" > /dev/null 2> "$err"
  rc=$?
  end=$(date +%s%N)
  seconds=$(( (end - start) / 1000000000 ))
  if [ $rc -eq "$code" ] && grep -Eq -e "$regex" "$err" && [ $seconds -le "${limit:-30}" ]; then
    passed=$((passed + 1))
    echo "ok   $name (exit $rc, $seconds s): $(grep -m1 '^hpcdb: ' "$err")"
  else
    failed=$((failed + 1))
    echo "FAIL $name (exit $rc, $seconds s); stderr:"
    sed 's/^/     /' "$err" | head -12
  fi
}

# only NAME FILES... : the mount holds exactly these files (none partial)
only() {
  local name=$1
  shift
  local have want
  have=$(ls -A "$mnt" | sort | tr '\n' ' ')
  want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
  [ -z "$*" ] && want=""
  if [ "$have" = "$want" ]; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name: '$have' instead of '$want'"; fi
}

expect_exit join_output_full 1 "cannot write pair file '$mnt/pairs.bin': it needs 1.5 MiB, but the file system of '$mnt' has only 1.0 MiB free" \
  join --inner 100K --outer 100K --output "$mnt/pairs.bin"
only join_output_nothing_left
expect_exit generate_full 1 "cannot write file '$mnt/r.bin': together with '$mnt/s.bin' it needs 1.2 MiB, but" \
  generate --inner 40K --outer 40K --output-r "$mnt/r.bin" --output-s "$mnt/s.bin"
only generate_nothing_left
# CSV sizes are known only once the text is made: R would fit, S then does not.
expect_exit generate_csv_full 1 "cannot write file '$mnt/s.csv': it needs .*, but the file system of '$mnt' has only" \
  generate --inner 40K --outer 40K --output-r "$mnt/r.bin" --output-s "$mnt/s.csv"
only generate_csv_nothing_left

# Fill the file system but for a few bytes: small outputs fail while written.
echo '{"old": true}' > "$mnt/result.json"
head -c 2M /dev/zero > "$mnt/filler" 2> /dev/null
expect_exit join_json_full 1 "cannot write JSON file '$mnt/result.json': No space left on device" \
  join --inner 1000 --outer 1000 --json "$mnt/result.json"
if [ "$(cat "$mnt/result.json")" = '{"old": true}' ]; then passed=$((passed + 1)); echo "ok   old_json_kept"; else failed=$((failed + 1)); echo "FAIL old_json_kept"; fi
# Calibration measures for 3 s on a quiet machine (11 s at load 10) before it writes.
limit=60 expect_exit calibrate_full 1 "cannot write calibration file '$mnt/cal.json': No space left on device" \
  calibrate --tuples 8Ki --repeat 1 --output "$mnt/cal.json"
if [ "$ranks" -ge 2 ]; then
  # Transaction agents poll without pause: on a busy machine the run itself takes longer.
  limit=60 expect_exit txn_json_full 1 "cannot write JSON file '$mnt/txn.json': No space left on device" \
    txn --transactions 50 --pings 10 --locks-per-agent 1K --json "$mnt/txn.json"
fi
expect_exit join_output_small_full 1 "cannot write pair file '$mnt/pairs.csv': it needs" \
  join --inner 1000 --outer 1000 --output "$mnt/pairs.csv"
only full_nothing_left filler result.json

# A small /dev/shm (a container's default is 64 MiB), in a mount namespace of
# the job's own: node-shared memory that does not fit is refused before it is
# allocated (before: Open MPI's MPI_ERR_INTERN dump), naming the option and
# the margin left to MPI's own segments.
if unshare -m true 2> /dev/null; then
  wrap=(unshare -m sh -c 'mount -t tmpfs -o size=64m tmpfs /dev/shm && exec "$@"' sh)
  if [ "$ranks" -ge 2 ]; then
    expect_exit txn_locks_beyond_shm 2 "needs about .* of node-shared memory on this node, more than the .* it may use of the .* free in /dev/shm \\(95% of it, leaving the rest to MPI's own segments\\).*--locks-per-agent" \
      txn --locks-per-agent 8M --duration 1
  fi
  expect_exit join_beyond_shm 2 "of node-shared memory on this node, more than the .* free in /dev/shm \\(95% of it" \
    join --inner 16M --outer 16M
  wrap=()
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
