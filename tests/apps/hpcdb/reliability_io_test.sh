#!/usr/bin/env bash
# Nothing lost, nothing misread: every output is checked (a failed write ends
# every rank with exit 1, a message naming the file and the system's reason,
# and no partial file), inputs are never silently dropped, and messages say
# what to change. Each case must end within 30 s of mpirun's start.
# Usage: reliability_io_test.sh path/to/hpcdb   (RANKS=1, 2 or 3)
# ctest-ranks: 1 2 3
# ctest-timeout: 1800
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
  timeout 300 "$@" > "$work/out" 2> "$work/err"
  rc=$?
  end=$(date +%s%N)
  seconds=$(( (end - start) / 1000000000 ))
  message=$(grep -m1 '^hpcdb: ' "$work/err")
}

# expect_exit NAME CODE REGEX COMMAND... : exit CODE, REGEX on stderr, within 30 s of mpirun's start (ample for a loaded machine; each case reports its time)
expect_exit() {
  local name=$1 code=$2 regex=$3
  shift 3
  run_timed "$@"
  if [ "$rc" -eq "$code" ] && grep -Eq -e "$regex" "$work/err" && [ "$seconds" -le "${limit:-30}" ]; then
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

# hpcdb under mpirun with rank 1 limited to 8 MiB files (its own byte
# range of a shared output lies beyond that).
rank1_file_limit=("${mpirun[@]}" bash -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then ulimit -f 8192; fi; exec "$@"' bash "$hpcdb")

out=$work/out_dir
mkdir -p "$out"

# --- outputs: devices that refuse every byte
expect_exit join_output_dev_full 1 "cannot write pair file '/dev/full': No space left on device" \
  "${mpirun[@]}" "$hpcdb" join --inner 10K --outer 10K --output /dev/full
expect_exit generate_output_dev_full 1 "cannot write file '/dev/full': No space left on device" \
  "${mpirun[@]}" "$hpcdb" generate --inner 10K --outer 10K --output-r "$out/r.bin" --output-s /dev/full
# Calibration measures before it writes (3 s quiet, 11 s at load 10): the case is about the exit and the message.
limit=60 expect_exit calibrate_output_dev_full 1 "cannot write calibration file '/dev/full': No space left on device" \
  "${mpirun[@]}" "$hpcdb" calibrate --tuples 8Ki --repeat 1 --output /dev/full
expect_exit join_json_dev_full 1 "cannot write JSON file '/dev/full': No space left on device" \
  "${mpirun[@]}" "$hpcdb" join --inner 1000 --outer 1000 --json /dev/full
if [ "$ranks" -ge 2 ]; then
  # Transaction agents poll without pause: on a busy machine the run itself takes longer.
  limit=60 expect_exit txn_json_dev_full 1 "cannot write JSON file '/dev/full': No space left on device" \
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

# --- a table join's Parquet output failing on rank 1 (its part file grows
# past 8 MiB while its first row group is written), broadcast and
# partitioned; every rank ends, nothing is left behind
if [ "$ranks" -ge 2 ]; then
  awk 'BEGIN { print "k,v"; for (i = 1; i <= 3000000; i++) print i "," (i * 2654435761) % 4294967291 }' > "$out/keys.csv"
  expect_exit table_join_rank1_write_fails 1 \
    "cannot write Parquet file '$out/joined/part-00001.parquet': .*File too large" \
    "${rank1_file_limit[@]}" join --left "$out/keys.csv" --right "$out/keys.csv" --on k --output "$out/joined" \
    --progress off
  if [ ! -e "$out/joined" ]; then pass table_join_no_output; else fail table_join_no_output; fi
  # The partitioned join writes its result a slice at a time (here 100,000 rows).
  expect_exit table_join_partitioned_rank1_write_fails 1 \
    "cannot write Parquet file '$out/joined/part-00001.parquet': .*File too large" \
    "${rank1_file_limit[@]}" join --left "$out/keys.csv" --right "$out/keys.csv" --on k --output "$out/joined" \
    --progress off --strategy partitioned --testing-slice-rows 100000
  if [ ! -e "$out/joined" ]; then pass table_join_partitioned_no_output; else fail table_join_partitioned_no_output; fi
  no_partial_files no_partial_files_after_table_join_failure "$out"
  rm -f "$out/keys.csv"
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

# --- inputs are never silently dropped or misread
in=$work/in_dir
mkdir -p "$in"
printf '1,10\n2,20\n3,30\n' > "$in/s.csv"
mkfifo "$in/pipe.csv"
expect_exit input_fifo_refused 2 "cannot read input file '$in/pipe.csv': it is a FIFO \\(named pipe\\), not a regular file" \
  "${mpirun[@]}" "$hpcdb" join --input-r "$in/pipe.csv" --input-s "$in/s.csv"
expect_exit input_device_refused 2 "cannot read input file '/dev/zero': it is a device" \
  "${mpirun[@]}" "$hpcdb" join --input-r /dev/zero --input-s "$in/s.csv"
# The other files a user names: a calibration and lock traces (a FIFO's open would wait for a writer).
mkfifo "$in/calibration.json"
expect_exit calibration_fifo_refused 2 "cannot read calibration file '$in/calibration.json': it is a FIFO" \
  "${mpirun[@]}" "$hpcdb" join --inner 1000 --outer 1000 --calibration "$in/calibration.json"
expect_exit model_calibration_directory 2 "cannot read calibration file '$in': it is a directory" \
  "$hpcdb" model --calibration "$in" --inner 1M --outer 1M
mkdir -p "$in/traces" "$in/traces2"
mkfifo "$in/traces/max-locks-per-wh.meta"
printf '1,1,X,new-order\n' > "$in/traces/wh000001.csv"
expect_exit trace_meta_fifo_refused 2 "cannot read lock trace meta file '$in/traces/max-locks-per-wh.meta': it is a FIFO" \
  "${mpirun[@]}" "$hpcdb" txn --workload trace --trace-dir "$in/traces" --duration 1
printf '100\n' > "$in/traces2/max-locks-per-wh.meta"
mkfifo "$in/traces2/wh000001.csv"
if [ "$ranks" -ge 2 ]; then  # the trace files are read once a job has its transaction agents
  expect_exit trace_file_fifo_refused 2 "cannot read lock trace file '$in/traces2/wh000001.csv': it is a FIFO" \
    "${mpirun[@]}" "$hpcdb" txn --workload trace --trace-dir "$in/traces2" --duration 1
fi
# A first line that is not clearly a header is data (and malformed), never skipped in silence.
printf 'x5,1\n1,2\n2,3\n' > "$in/odd_first.csv"
printf '# comment\n1,2\n' > "$in/comment_first.csv"
printf 'key,rid\n1,2\n2,3\n' > "$in/named.csv"
expect_exit header_auto_not_clear 2 "malformed line at byte offset 0: .*found \"x5,1\".*--header yes skips it" \
  "${mpirun[@]}" "$hpcdb" join --input-r "$in/odd_first.csv" --input-s "$in/s.csv"
expect_exit header_auto_comment 2 "malformed line at byte offset 0: .*found \"# comment\"" \
  "${mpirun[@]}" "$hpcdb" join --input-r "$in/comment_first.csv" --input-s "$in/s.csv"
expect_ok header_auto_named_reported "R = .*named.csv \\(2 tuples, first line 'key,rid' skipped as a header\\)" \
  "${mpirun[@]}" "$hpcdb" join --input-r "$in/named.csv" --input-s "$in/s.csv" --json "$work/header.json"
if python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))["workload"]; sys.exit(0 if w["header_skipped_r"]=="key,rid" and w["header_skipped_s"] is None else 1)' "$work/header.json"; then
  pass header_skipped_in_json
else
  fail header_skipped_in_json
fi
expect_ok header_yes_skips_any "first line 'x5,1' skipped as a header.*matches|matches" \
  "${mpirun[@]}" "$hpcdb" join --input-r "$in/odd_first.csv" --input-s "$in/s.csv" --header yes
# --header yes applies to both inputs: S's first line '1,10' is skipped too, leaving 1 match.
if grep -q "first line 'x5,1' skipped as a header" "$work/out" && grep -q "first line '1,10' skipped" "$work/out" &&
   grep -Eq "[^0-9]1 matches" "$work/out"; then
  pass header_yes_result
else
  fail "header_yes_result: $(grep -i match "$work/out" | head -2)"
fi
expect_exit header_no_keeps_names 2 "malformed line at byte offset 0: .*found \"key,rid\"" \
  "${mpirun[@]}" "$hpcdb" join --input-r "$in/named.csv" --input-s "$in/s.csv" --header no
expect_exit header_with_generated_data 2 "--header applies to CSV input files" \
  "${mpirun[@]}" "$hpcdb" join --inner 1000 --outer 1000 --header yes
# Text under a binary name whose size is a multiple of 16, and binary records under a .csv name.
printf '1,1\n2,2\n3,3\n4,4\n' > "$in/text.bin"
expect_exit text_in_binary_input 2 "input '$in/text.bin' holds CSV text .*give it a name ending in .csv" \
  "${mpirun[@]}" "$hpcdb" join --input-r "$in/text.bin" --input-s "$in/s.csv"
"$hpcdb" generate --inner 100 --outer 100 --output-r "$in/records.bin" --output-s "$in/records_s.bin" > /dev/null 2>&1
cp "$in/records.bin" "$in/records.csv"
expect_exit binary_in_csv_input 2 "input '$in/records.csv' is not text: byte offset [0-9]+ holds .x[0-9A-F][0-9A-F].*does not end in .csv" \
  "${mpirun[@]}" "$hpcdb" join --input-r "$in/records.csv" --input-s "$in/s.csv"
# Unprintable bytes of a malformed line are shown escaped.
printf '1,2\n3,\3034\n' > "$in/latin.csv"
expect_exit csv_error_escapes_bytes 2 'found "3,.xC3.x1C4"|found "3,.xC34"' \
  "${mpirun[@]}" "$hpcdb" join --input-r "$in/latin.csv" --input-s "$in/s.csv"
printf '1,2\n3,\303\2514\n' > "$in/utf8.csv"
expect_exit csv_error_escapes_utf8 2 'found "3,.xC3.xA94"' \
  "${mpirun[@]}" "$hpcdb" join --input-r "$in/utf8.csv" --input-s "$in/s.csv"
# The same file for both outputs of generate would lose R.
expect_exit generate_same_output 2 "--output-r and --output-s name the same file" \
  "${mpirun[@]}" "$hpcdb" generate --inner 100 --outer 100 --output-r "$in/same.bin" --output-s "$in/../in_dir/same.bin"
# Options that would be ignored, and numbers that would wrap.
expect_exit zipf_with_input_files 2 "--zipf shapes generated data, but R and S come from --input-r/--input-s" \
  "${mpirun[@]}" "$hpcdb" join --input-r "$in/named.csv" --input-s "$in/s.csv" --zipf 1.2
expect_exit inner_with_input_files 2 "--inner shapes generated data" \
  "${mpirun[@]}" "$hpcdb" join --input-r "$in/named.csv" --input-s "$in/s.csv" --inner 5M
expect_exit seed_with_input_files 2 "--seed shapes generated data" \
  "${mpirun[@]}" "$hpcdb" join --input-r "$in/named.csv" --input-s "$in/s.csv" --seed 7
expect_exit seed_negative 2 "--seed: must be a whole number of 0 or more, not '-1'" \
  "${mpirun[@]}" "$hpcdb" join --inner 1000 --outer 1000 --seed -1
expect_exit generate_seed_negative 2 "--seed: must be a whole number of 0 or more, not '-1'" \
  "${mpirun[@]}" "$hpcdb" generate --inner 100 --outer 100 --seed -1 --output-r "$in/a.bin" --output-s "$in/b.bin"
expect_exit threads_negative 2 "--threads: must be a whole number of 0 or more, not '-2'" \
  "${mpirun[@]}" "$hpcdb" join --inner 1000 --outer 1000 --threads -2
expect_exit zipf_not_finite 2 "--zipf: must be a finite number, not 'nan'" \
  "${mpirun[@]}" "$hpcdb" join --inner 1000 --outer 1000 --zipf nan
# Options of another algorithm, or of another mode of this one, would be ignored.
expect_exit radix_option_with_sort_merge 2 "--network-bits applies to --algorithm radix, not sort-merge; leave it out" \
  "${mpirun[@]}" "$hpcdb" join --algorithm sort-merge --inner 1000 --outer 1000 --network-bits 4
expect_exit sort_merge_option_with_radix 2 "--splitters applies to --algorithm sort-merge, not radix" \
  "${mpirun[@]}" "$hpcdb" join --inner 1000 --outer 1000 --splitters sampled
expect_exit chunk_size_with_radix 2 "--chunk-size applies to --algorithm cyclo or broadcast, not radix" \
  "${mpirun[@]}" "$hpcdb" join --inner 1000 --outer 1000 --chunk-size 64KiB
expect_exit udp_option_without_udp 2 "--udp-loss applies to --transport udp, not ring" \
  "${mpirun[@]}" "$hpcdb" join --algorithm broadcast --inner 1000 --outer 1000 --udp-loss 0.1
expect_exit exchange_chunk_when_streaming 2 "--exchange-chunk applies to a scheduled exchange: give it a --schedule" \
  "${mpirun[@]}" "$hpcdb" join --inner 1000 --outer 1000 --exchange-chunk 64KiB
expect_exit node_sharing_with_cyclo 2 "--node-sharing applies to --algorithm radix or sort-merge, not cyclo" \
  "${mpirun[@]}" "$hpcdb" join --algorithm cyclo --inner 1000 --outer 1000 --node-sharing off
# Memory driven by the radix bits: refused before anything is allocated, naming the option.
if [ "$(awk '/MemAvailable/ {print int($2 / 1048576)}' /proc/meminfo)" -lt 60 ]; then
  expect_exit network_bits_memory 2 "this join .* needs about .* of memory on this node, more than .*--network-bits 24 drives most of it" \
    "${mpirun[@]}" "$hpcdb" join --inner 1M --outer 1M --network-bits 24 --threads 8
fi
if [ "$ranks" -ge 2 ]; then
  expect_exit txn_duration_infinite 2 "--duration: must be a finite number, not 'inf'" \
    "${mpirun[@]}" "$hpcdb" txn --duration inf
  expect_exit txn_duration_absurd 2 "--duration must be more than 0 and at most 1000000 s .*, not 1e\\+300" \
    "${mpirun[@]}" "$hpcdb" txn --duration 1e300
  expect_exit txn_reply_timeout_absurd 2 "--reply-timeout must be more than 0 and at most 1000000 s, not 1e\\+20" \
    "${mpirun[@]}" "$hpcdb" txn --reply-timeout 1e20
  expect_exit txn_fail_rank_beyond 2 "--fail-rank $ranks names no rank: this job has ranks 0 to $((ranks - 1))" \
    "${mpirun[@]}" "$hpcdb" txn --fail-rank "$ranks" --duration 1
  # Records beyond memory (or /dev/shm): refused naming the option, not an MPI_ERR_INTERN dump.
  expect_exit txn_locks_beyond_memory 2 "keeping the records of this node's 1 lock agent needs about .* use fewer --locks-per-agent" \
    "${mpirun[@]}" "$hpcdb" txn --locks-per-agent 10G --duration 1
fi

# --- messages
if [ "$ranks" -eq 1 ]; then
  expect_exit mistyped_command 2 "unknown command 'jion' \\(did you mean 'join'\\?\\); the commands are join, generate" \
    "$hpcdb" jion --inner 1000
  expect_exit no_command 2 "give a command: join, generate, calibrate, model, txn" "$hpcdb"
  expect_exit option_given_twice 2 "--inner was given twice \\('1000' and '2000'\\); give it once" \
    "$hpcdb" join --inner 1000 --inner 2000
  expect_exit flag_given_twice 2 "--verify was given twice; give it once" "$hpcdb" join --inner 1000 --verify --verify
  expect_ok version "^hpcdb [0-9]+\\.[0-9]+\\.[0-9]+" "$hpcdb" --version
  # Ctrl-C: one line, exit 130, no temporary file left.
  "$hpcdb" generate --inner 100M --outer 100M --output-r "$in/int_r.bin" --output-s "$in/int_s.bin" > "$work/out" 2> "$work/err" &
  job=$!
  for _ in $(seq 100); do ls -A "$in" | grep -q 'partial' && break; sleep 0.1; done
  kill -INT "$job"
  wait "$job"
  rc=$?
  if [ "$rc" -eq 130 ] && [ "$(grep -c . "$work/err")" -eq 1 ] && grep -q "^hpcdb: interrupted (Ctrl-C)" "$work/err"; then
    pass "interrupted_exit_130 ($(cat "$work/err"))"
  else
    fail "interrupted_exit_130 (exit $rc): $(cat "$work/err")"
  fi
  no_partial_files no_partial_files_after_interruption "$in"
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
