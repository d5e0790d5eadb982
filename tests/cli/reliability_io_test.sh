#!/usr/bin/env bash
# Nothing lost, nothing misread: every output is checked (a failed write ends
# every rank with exit 1, a message naming the file and the system's reason,
# and no partial file), inputs are never silently dropped, and messages say
# what to change. Each case must end within 10 s.
# Usage: reliability_io_test.sh path/to/hpcdb   (RANKS=1, 2 or 3)
set -u
hpcdb=$1
ranks=${RANKS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe --bind-to none -np "$ranks")
passed=0
failed=0

pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }

# run_timed COMMAND... : runs with a 60 s guard; sets rc and seconds, output in $work/out and $work/err
run_timed() {
  local start end
  start=$(date +%s%N)
  timeout 60 "$@" > "$work/out" 2> "$work/err"
  rc=$?
  end=$(date +%s%N)
  seconds=$(( (end - start) / 1000000000 ))
  message=$(grep -m1 '^hpcdb: ' "$work/err")
}

# expect_exit NAME CODE REGEX COMMAND... : exit CODE, REGEX on stderr, within 10 s
expect_exit() {
  local name=$1 code=$2 regex=$3
  shift 3
  run_timed "$@"
  if [ "$rc" -eq "$code" ] && grep -Eq -e "$regex" "$work/err" && [ "$seconds" -le "${limit:-10}" ]; then
    pass "$name (exit $rc, ${seconds} s): $message"
  else
    fail "$name (exit $rc, ${seconds} s); stderr:"
    sed 's/^/     /' "$work/err" | head -12
  fi
}

# expect_ok NAME REGEX COMMAND... : exit 0, REGEX on stdout or stderr
expect_ok() {
  local name=$1 regex=$2
  shift 2
  run_timed "$@"
  if [ "$rc" -eq 0 ] && cat "$work/out" "$work/err" | grep -Eq -e "$regex"; then
    pass "$name (exit 0, ${seconds} s)"
  else
    fail "$name (exit $rc, ${seconds} s); stdout/stderr:"
    sed 's/^/     /' "$work/out" "$work/err" | tail -12
  fi
}

# no_partial_files NAME DIRECTORY : nothing but what the test put there
no_partial_files() {
  if ls -A "$2" | grep -q 'partial'; then fail "$1: temporary files left: $(ls -A "$2" | tr '\n' ' ')"; else pass "$1"; fi
}

# hpcdb under mpirun with rank 1 limited to 16 MiB files (its own byte
# range of a shared output lies beyond that).
rank1_file_limit=("${mpirun[@]}" bash -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then ulimit -f 16384; fi; exec "$@"' bash "$hpcdb")

out=$work/out_dir
mkdir -p "$out"

# --- outputs: devices that refuse every byte
expect_exit join_output_dev_full 1 "cannot write pair file '/dev/full': No space left on device" \
  "${mpirun[@]}" "$hpcdb" join --inner 10K --outer 10K --output /dev/full
expect_exit generate_output_dev_full 1 "cannot write file '/dev/full': No space left on device" \
  "${mpirun[@]}" "$hpcdb" generate --inner 10K --outer 10K --output-r "$out/r.bin" --output-s /dev/full
expect_exit calibrate_output_dev_full 1 "cannot write calibration file '/dev/full': No space left on device" \
  "${mpirun[@]}" "$hpcdb" calibrate --tuples 8Ki --repeat 1 --output /dev/full
expect_exit join_json_dev_full 1 "cannot write JSON file '/dev/full': No space left on device" \
  "${mpirun[@]}" "$hpcdb" join --inner 1000 --outer 1000 --json /dev/full
if [ "$ranks" -ge 2 ]; then
  # Transaction agents poll without pause: on a busy machine the run itself takes longer.
  limit=30 expect_exit txn_json_dev_full 1 "cannot write JSON file '/dev/full': No space left on device" \
    "${mpirun[@]}" "$hpcdb" txn --transactions 50 --pings 10 --locks-per-agent 1K --json /dev/full
fi
no_partial_files no_partial_files_after_device_failures "$out"

# --- standard output on a full device (a process of its own: under mpirun,
# standard output is mpirun's, which forwards it without checking)
if [ "$ranks" -eq 1 ]; then
  expect_exit stdout_json_full 1 "cannot write JSON to standard output: No space left on device" \
    bash -c '"$0" join --inner 1000 --outer 1000 --json - > /dev/full' "$hpcdb"
  expect_exit stdout_summary_full 1 "cannot write results to standard output: No space left on device" \
    bash -c '"$0" join --inner 1000 --outer 1000 --repeat 2 > /dev/full' "$hpcdb"
  expect_exit stdout_calibration_full 1 "cannot write calibration file to standard output: No space left on device" \
    bash -c '"$0" calibrate --tuples 8Ki --repeat 1 --output - > /dev/full' "$hpcdb"
  expect_exit stdout_help_full 1 "cannot write results to standard output: No space left on device" \
    bash -c '"$0" join --help > /dev/full' "$hpcdb"
fi

# --- a write that fails on one rank only (rank 1's file-size limit): every
# rank ends, the old file stays as it was, no temporary file is left
if [ "$ranks" -ge 2 ]; then
  echo "old relation" > "$out/r.bin"
  expect_exit generate_rank1_write_fails 1 "cannot write file '$out/r.bin': File too large" \
    "${rank1_file_limit[@]}" generate --inner 4M --outer 1000 --output-r "$out/r.bin" --output-s "$out/s.bin"
  if cmp -s "$out/r.bin" <(echo "old relation") && [ ! -e "$out/s.bin" ]; then pass generate_old_file_kept; else fail generate_old_file_kept; fi
  expect_exit join_output_rank1_write_fails 1 "cannot write pair file '$out/pairs.bin': File too large" \
    "${rank1_file_limit[@]}" join --inner 3M --outer 3M --output "$out/pairs.bin"
  if [ ! -e "$out/pairs.bin" ]; then pass join_output_no_file; else fail join_output_no_file; fi
  no_partial_files no_partial_files_after_rank_failure "$out"
  rm -f "$out/r.bin"
fi

# --- complete outputs: in place of a symbolic link's target, to /dev/null, with nothing left over
expect_ok generate_complete "wrote R" "${mpirun[@]}" "$hpcdb" generate --inner 5000 --outer 7000 \
  --output-r "$out/r.csv" --output-s "$out/s.bin"
if [ "$(wc -l < "$out/r.csv")" -eq 5001 ] && [ "$(stat -c %s "$out/s.bin")" -eq 112000 ]; then pass generate_sizes; else fail generate_sizes; fi
ln -s "$out/pairs_target.csv" "$out/pairs_link.csv"
echo "old" > "$out/pairs_target.csv"
expect_ok join_output_through_symlink "matches" "${mpirun[@]}" "$hpcdb" join --input-r "$out/r.csv" --input-s "$out/s.bin" \
  --output "$out/pairs_link.csv" --json "$out/j.json"
if [ -L "$out/pairs_link.csv" ] && [ "$(wc -l < "$out/pairs_target.csv")" -eq 7001 ]; then pass symlink_target_replaced; else fail symlink_target_replaced; fi
expect_ok join_output_dev_null "matches" "${mpirun[@]}" "$hpcdb" join --inner 10K --outer 10K --output /dev/null
no_partial_files no_partial_files_after_success "$out"
expect_exit output_to_standard_output 2 "cannot write pair file '-': standard output cannot take a file that all ranks write" \
  "${mpirun[@]}" "$hpcdb" join --inner 1000 --outer 1000 --output -
expect_exit output_is_input 2 "--output and --input-r name the same file" \
  "${mpirun[@]}" "$hpcdb" join --input-r "$out/r.csv" --input-s "$out/s.bin" --output "$out/../out_dir/r.csv"
expect_exit json_is_output 2 "--output and --json name the same file" \
  "${mpirun[@]}" "$hpcdb" join --inner 1000 --outer 1000 --output "$out/same.json" --json "$out/same.json"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
