#!/usr/bin/env bash
# End-to-end tests of the hpcdb command line under mpirun: correct runs are
# verified against the reference join; bad input must end every rank with one
# clear message and a non-zero exit within seconds.
# Usage: cli_test.sh path/to/hpcdb
# ctest-ranks: 1 2 3
# ctest-timeout: 2700
set -u
hpcdb=$1
ranks=${RANKS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe --bind-to none -np "$ranks")
passed=0
failed=0

# expect_failure NAME REGEX ARGS... : non-zero exit, REGEX on stderr, within 30 s
expect_failure() {
  local name=$1 regex=$2
  shift 2
  local start end rc
  start=$(date +%s)
  timeout 300 "${mpirun[@]}" "$hpcdb" "$@" > "$work/out" 2> "$work/err"
  rc=$?
  end=$(date +%s)
  if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -Eq -e "$regex" "$work/err" && [ $((end - start)) -le 30 ]; then
    passed=$((passed + 1))
    echo "ok   $name (exit $rc, $((end - start)) s of 30)"
  else
    failed=$((failed + 1))
    echo "FAIL $name (exit $rc, $((end - start)) s); stderr:"
    sed 's/^/     /' "$work/err" | head -20
  fi
}

# expect_success NAME CHECK-REGEX ARGS... : exit 0 and REGEX on stdout
expect_success() {
  local name=$1 regex=$2
  shift 2
  timeout 900 "${mpirun[@]}" "$hpcdb" "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  if [ $rc -eq 0 ] && grep -Eq -e "$regex" "$work/out"; then
    passed=$((passed + 1))
    echo "ok   $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name (exit $rc); stdout/stderr:"
    sed 's/^/     /' "$work/out" "$work/err" | tail -20
  fi
}

# --- bad input
expect_failure unknown_option "not expected: --bogus|--bogus" join --bogus
expect_failure unknown_subcommand "hpcdb" frobnicate
expect_failure bad_count "--inner: '12Q' is not a count" join --inner 12Q
expect_failure bad_selectivity "selectivity" join --inner 1000 --outer 1000 --selectivity 1.5
expect_failure bad_algorithm "algorithm" join --algorithm nested-loop
expect_failure zero_threads "--threads" join --inner 1000 --threads 0
expect_failure bad_buffer_size "multiple of 64" join --inner 1000 --buffer-size 100
expect_failure bad_node_sharing "--node-sharing" join --inner 1000 --node-sharing maybe
expect_failure too_many_input_chunks "--input-chunks must be at most 4096" join --inner 1000 --input-chunks 5000
expect_failure lone_input_r "go together" join --input-r "$work/missing.bin"
expect_failure missing_file "cannot open input file" join --input-r "$work/missing.bin" --input-s "$work/missing.bin"
printf 'key,rid\n1,2\n3,4\nfive,6\n7,8\n' > "$work/bad.csv"
printf '1,1\n' > "$work/good.csv"
expect_failure malformed_csv "malformed line at byte offset" join --input-r "$work/good.csv" --input-s "$work/bad.csv"
head -c 100 /dev/zero > "$work/odd.bin"
expect_failure binary_size "multiple of 16" join --input-r "$work/odd.bin" --input-s "$work/odd.bin"
expect_failure too_large_for_memory "needs about .* of memory on this node, more than the .* it may use of the .* available \\(90% of it" join --inner 400G --outer 400G
expect_failure generate_too_large_for_memory "generating these relations needs about .* more than the .* it may use of the .* available" generate --inner 400G --outer 400G --output-r "$work/big_r.bin" --output-s "$work/big_s.bin"
expect_failure unwritable_output "cannot write" join --inner 1000 --outer 1000 --output /nonexistent/dir/out.bin
# Output paths are checked before the run; a write that fails at the end
# (/dev/full) still ends every rank, not only the one that writes.
expect_failure json_missing_directory "cannot write JSON file .* directory '/nonexistent/dir' does not exist" join --inner 1000 --outer 1000 --json /nonexistent/dir/r.json
expect_failure json_is_directory "cannot write JSON file .*: it is a directory" join --inner 1000 --outer 1000 --json "$work"
expect_failure json_write_fails_late "cannot write JSON file '/dev/full'" join --inner 1000 --outer 1000 --json /dev/full
expect_failure generate_output_directory "cannot write file .*: it is a directory" generate --inner 1000 --output-r "$work" --output-s "$work/s.bin"
expect_failure calibrate_output_missing_directory "cannot write calibration file" calibrate --output /nonexistent/dir/cal.json
expect_failure txn_json_missing_directory "cannot write JSON file" txn --transactions 10 --json /nonexistent/dir/t.json

# --- correct runs, checked against the reference join
expect_success help "Usage|USAGE|Options|OPTIONS" join --help
expect_success generated_verified "verification: passed" join --inner 200K --outer 400K --verify
expect_success put_path_verified "verification: passed" join --inner 200K --outer 200K --force-put --buffer-size 4KiB --verify
expect_success node_sharing_off_verified "verification: passed" join --inner 200K --outer 300K --zipf 1.1 --node-sharing off --input-chunks 3 --verify
expect_success threads_verified "verification: passed" join --inner 200K --outer 200K --threads 2 --zipf 1.2 --assignment skew-aware --verify
expect_success uncompressed_verified "verification: passed" join --inner 100K --outer 100K --compression off --verify
expect_success generate_files "wrote R" generate --inner 5000 --outer 20000 --zipf 1.05 --output-r "$work/r.bin" --output-s "$work/s.csv"
expect_success file_input_chunked_verified "verification: passed" join --input-r "$work/r.bin" --input-s "$work/s.csv" --input-chunks 5 --threads 2 --verify
expect_success binary_and_csv_inputs "verification: passed" join --input-r "$work/r.bin" --input-s "$work/s.csv" --verify --output "$work/pairs.csv"
if [ "$(wc -l < "$work/pairs.csv")" -eq 20001 ]; then passed=$((passed + 1)); echo "ok   output_pairs"; else failed=$((failed + 1)); echo "FAIL output_pairs"; fi

# --- the sort-merge join on the same inputs and paths
expect_success sort_merge_verified "verification: passed" join --algorithm sort-merge --inner 200K --outer 400K --verify
expect_success sort_merge_put_sampled "verification: passed" join --algorithm sort-merge --inner 100K --outer 300K --zipf 1.2 --force-put --splitters sampled --send-order natural --run-length 1000 --merge-fan-in 4 --verify
expect_success sort_merge_threads_uncompressed "verification: passed" join --algorithm sort-merge --inner 100K --outer 100K --threads 2 --compression off --verify
expect_success sort_merge_files "verification: passed" join --algorithm sort-merge --input-r "$work/r.bin" --input-s "$work/s.csv" --verify --output "$work/sm_pairs.bin"
if cmp -s <(python3 -c "
import struct,sys
d=open('$work/sm_pairs.bin','rb').read(); print(sorted(struct.iter_unpack('<QQ', d)))") <(python3 -c "
import csv
rows=list(csv.reader(open('$work/pairs.csv')))[1:]; print(sorted((int(a),int(b)) for a,b in rows))"); then
  passed=$((passed + 1)); echo "ok   both_algorithms_same_pairs"
else
  failed=$((failed + 1)); echo "FAIL both_algorithms_same_pairs"
fi
expect_failure bad_run_length "--run-length" join --algorithm sort-merge --inner 1000 --run-length 3
expect_failure bad_send_order "send-order" join --algorithm sort-merge --inner 1000 --send-order backwards
expect_failure bad_subranges "--subranges" join --algorithm sort-merge --inner 1000 --subranges 5000
expect_success local_passes "local bits 14 in 2 passes \(7 \+ 7\), the first counted in the histogram" join --inner 100K --outer 100K --network-bits 4 --local-bits 14 --verify
expect_success sort_merge_subranges "verification: passed" join --algorithm sort-merge --inner 200K --outer 200K --zipf 1.05 --run-length 256 --subranges 7 --verify

# --- JSON output is an array of one object per repetition with the promised fields
timeout 600 "${mpirun[@]}" "$hpcdb" join --inner 100K --outer 100K --repeat 3 --verify --json - > "$work/run.json" 2> "$work/err"
if python3 - "$work/run.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))
assert isinstance(runs, list) and len(runs) == 3, runs
need = ["algorithm", "ranks", "threads_per_rank", "inner_tuples", "outer_tuples", "matches", "checksum", "verified",
        "seconds", "tuples_per_second", "setup_seconds", "bytes_sent", "imbalance", "phases", "config"]
for r in runs:
    for k in need:
        assert k in r, k
    assert r["algorithm"] == "radix"
    assert r["verified"] is True and r["matches"] == 100000
    assert abs(r["tuples_per_second"] - 200000 / r["seconds"]) < 1e-6 * r["tuples_per_second"]
    for p in ["histogram", "window_allocation", "network_partition", "local_partition", "build_probe"]:
        assert r["phases"][p]["max"] >= r["phases"][p]["mean"] >= 0
    assert sum(r["config"]["local_passes"]) == r["config"]["local_bits"], r["config"]
    assert r["config"]["precounted_local_bits"] == (r["config"]["local_passes"] or [0])[0], r["config"]
PY
then passed=$((passed + 1)); echo "ok   json_output"; else failed=$((failed + 1)); echo "FAIL json_output"; cat "$work/err"; fi

timeout 600 "${mpirun[@]}" "$hpcdb" join --algorithm sort-merge --inner 100K --outer 100K --verify --json "$work/sm.json" > /dev/null 2> "$work/err"
if python3 - "$work/sm.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["algorithm"] == "sort-merge" and r["verified"] is True, r
assert list(r["phases"]) == ["partition", "window_allocation", "sort", "sort_wait", "merge", "match"], list(r["phases"])
for p in r["phases"].values():
    assert p["max"] >= p["mean"] >= 0
assert r["config"]["run_length"] == 16384 and r["config"]["merge_fan_in"] == 16
# Default sub-ranges hold about one run per sender: at most one merge level.
assert r["config"]["subranges"] >= 1 and r["config"]["merge_levels"] <= 1, r["config"]
# Dense keys within a sub-range fit 32-bit sort keys: every run goes that way.
assert r["config"]["runs_sorted_by_32bit_keys"] == r["config"]["runs_sent"] > 0, r["config"]
PY
then passed=$((passed + 1)); echo "ok   sort_merge_json"; else failed=$((failed + 1)); echo "FAIL sort_merge_json"; cat "$work/err"; fi

timeout 600 "${mpirun[@]}" "$hpcdb" join --algorithm sort-merge --inner 4M --outer 4M --subranges 1 --verify --json "$work/sm1.json" > /dev/null 2> "$work/err"
if python3 - "$work/sm1.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
# One range per rank: 21-22 key bits and 14 index bits do not fit 32-bit sort
# keys (only some short runs may): the 64-bit sort takes over, verified.
c = r["config"]
assert r["verified"] is True and c["runs_sorted_by_32bit_keys"] < c["runs_sent"], c
PY
then passed=$((passed + 1)); echo "ok   sort_merge_wide_and_narrow_runs"; else failed=$((failed + 1)); echo "FAIL sort_merge_wide_and_narrow_runs"; cat "$work/err"; fi

# --- peak memory per rank against the input and the estimate that refuses oversized joins:
# the estimate must never be below what a join really takes
for algorithm in radix sort-merge cyclo broadcast; do
  timeout 600 "${mpirun[@]}" "$hpcdb" join --algorithm $algorithm --inner 4M --outer 4M --json "$work/mem.json" > "$work/out" 2> "$work/err"
  if python3 - "$work/mem.json" "$work/out" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["memory"]
input_bytes = 8_000_000 * 16 // int(open(sys.argv[2]).read().split(" rank")[0].split()[-1])
assert abs(m["input_bytes_per_rank"] - input_bytes) <= 64, (m, input_bytes)  # fragments differ by a tuple or two
assert m["private_bytes"] + m["shared_bytes"] == m["peak_bytes_per_rank"], m
assert input_bytes <= m["peak_bytes_per_rank"], m
# A sanitizer's shadow memory, redzones and quarantine add to the resident set
# what the program itself does not take: the estimate bounds the uninstrumented
# program (HPCDB_SANITIZED: set by the sanitizer builds' tests).
import os
if not os.environ.get("HPCDB_SANITIZED"):
    assert m["peak_bytes_per_rank"] <= m["estimate_bytes_per_rank"], m
assert "memory: peak " in open(sys.argv[2]).read()
PY
  then passed=$((passed + 1)); echo "ok   memory_$algorithm"; else failed=$((failed + 1)); echo "FAIL memory_$algorithm"; cat "$work/err" "$work/out"; fi
done

# --- the shuffle operator: every design, checked by per-source counts and checksums
expect_failure shuffle_buffer_too_small "--buffer-size 64 B holds no row of 16 B after the 64-byte batch header; use at least 128 B" shuffle --tuples 1000 --buffer-size 64
expect_failure shuffle_zero_credits "--buffers must be at least 1" shuffle --tuples 1000 --buffers 0
expect_failure shuffle_bad_transport "unknown --transport 'rdma-magic'" shuffle --tuples 1000 --transport rdma-magic
expect_failure shuffle_bad_width "--width must be a multiple of 8|row width must be a multiple of 8" shuffle --tuples 1000 --width 20
expect_failure shuffle_bad_distribution "unknown --distribution 'normal'" shuffle --tuples 1000 --distribution normal
expect_failure shuffle_bad_direct_writes "--direct-writes must be on or off" shuffle --tuples 1000 --direct-writes maybe
expect_failure shuffle_too_large "this shuffle \\(.*: rows and buffers\\) needs about .* more than the .* it may use of the .* available" shuffle --tuples 400G
expect_failure shuffle_json_missing_directory "cannot write JSON file" shuffle --tuples 1000 --json /nonexistent/dir/s.json
expect_failure shuffle_message_layer_buffer_too_small "after the 64-byte batch header and the message layer's 64 bytes; use at least 192 B" shuffle --tuples 1000 --transport message-layer --buffer-size 128
expect_failure shuffle_message_layer_bad_threshold "--threshold .* does not fit a ring of --ring-bytes" shuffle --tuples 1000 --transport message-layer --threshold 1Mi --ring-bytes 64Ki
expect_success shuffle_all_verified "best: .* the rows/s of mpi-alltoallv" shuffle --tuples 300K --repeat 2 --verify
if grep -q "FAILED" "$work/out" || [ "$(grep -c ' ok$' "$work/out")" -lt 18 ]; then  # 6 designs: 2 runs and a summary each
  failed=$((failed + 1)); echo "FAIL shuffle_all_runs_checked"; cat "$work/out"
else
  passed=$((passed + 1)); echo "ok   shuffle_all_runs_checked"
fi
expect_success shuffle_threads_zipf_wide "ucx-am .* ok" shuffle --tuples 200K --threads 2 --distribution zipf --theta 1.3 --width 48 --buffer-size 4KiB --buffers 2 --verify
expect_success shuffle_all_to_one "mpi-one-sided .* ok" shuffle --tuples 200K --distribution all-to-one --buffers 1 --verify
expect_success shuffle_one_sided_rma "mpi-one-sided .* ok" shuffle --tuples 200K --transport mpi-one-sided --direct-writes off --verify
expect_success shuffle_message_layer_threads "message-layer .* ok" shuffle --tuples 200K --transport message-layer --net-threads 2 --threads 2 --distribution zipf --verify
expect_success shuffle_message_layer_rings "message-layer .* ok" shuffle --tuples 200K --transport message-layer --buffer-size 2KiB --threshold 2Ki --ring-bytes 16Ki --verify
timeout 600 "${mpirun[@]}" "$hpcdb" shuffle --tuples 100K --repeat 2 --verify --json - > "$work/shuffle.json" 2> "$work/err"
if python3 - "$work/shuffle.json" "$ranks" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ranks = int(sys.argv[2])
designs = ["mpi-alltoallv", "mpi-two-sided", "mpi-one-sided", "message-layer", "ucx-tag", "ucx-am"]
assert r["command"] == "shuffle" and r["ranks"] == ranks and r["rows"] == 100000 and r["row_bytes"] == 16, r
assert [d["design"] for d in r["designs"]] == designs, r["designs"]
assert r["designs"][3]["message_layer"]["threshold_bytes"] == 8192 and r["designs"][3]["message_layer"]["net_threads"] == 0
assert "calibration" not in r and all("model" not in s for s in r["summary"])
assert len(r["runs"]) == 2 * len(r["designs"])
# Interleaved: each repetition runs every design once.
assert [x["design"] for x in r["runs"][:len(designs)]] == designs
for run in r["runs"]:
    assert run["verified"] is True, run
    assert sum(x["rows_in"] for x in run["ranks"]) == 100000
    assert sum(x["rows_received"] for x in run["ranks"]) == 100000
    assert abs(run["rows_per_second"] - 100000 / run["seconds"]) < 1e-6 * run["rows_per_second"]
    for x in run["ranks"]:
        assert x["seconds"] <= run["seconds"] + 1e-9
        assert abs(x["bytes_sent_per_second"] - x["bytes_sent"] / run["seconds"]) < 1e-6 * max(1, x["bytes_sent_per_second"])
        if ranks == 1:
            assert x["bytes_sent"] == 0
for s in r["summary"]:
    assert s["verified"] is True
    assert s["bytes_sent_per_second_per_rank"]["min"] <= s["bytes_sent_per_second_per_rank"]["mean"] <= s["bytes_sent_per_second_per_rank"]["max"]
    assert s["registered_bytes_per_rank"] >= 0 and s["endpoints_per_rank"] == (0 if ranks == 1 else s["endpoints_per_rank"])
assert r["summary"][0]["vs_alltoallv"] == 1.0
assert r["best"]["design"] in designs[1:]
PY
then passed=$((passed + 1)); echo "ok   shuffle_json"; else failed=$((failed + 1)); echo "FAIL shuffle_json"; cat "$work/err"; fi

# --- calibration and the model next to the measurement
expect_success calibrate "open \+ close +[0-9.]+ ms \(median of 3\)" calibrate --tuples 64Ki --repeat 1 --output "$work/cal.json"
expect_success calibrate_concurrent "all ranks at once" calibrate --concurrent --tuples 64Ki --repeat 1 --output "$work/cal_concurrent.json"
expect_success model_radix "regime" model --calibration "$work/cal.json" --inner 1M --outer 1M
expect_success model_network_bound "network-bound" model --calibration "$work/cal.json" --machines 4 --ranks 16 --bandwidth 0.1 --inner 1G --outer 1G
expect_success model_sort_merge_subranges "merge levels 1 . 1 [(]R" model --calibration "$work/cal.json" --algorithm sort-merge --inner 32M --outer 32M --ranks 2
# The shuffle's model next to every design (with one rank the calibration has no message-layer threshold: the default serves).
timeout 600 "${mpirun[@]}" "$hpcdb" shuffle --tuples 200K --repeat 1 --calibration "$work/cal.json" --json "$work/shuffle_model.json" > "$work/out" 2> "$work/err"
if grep -Eq "message-layer .* = [0-9.]+x the model" "$work/out" && python3 - "$work/shuffle_model.json" "$work/cal.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
cal = json.load(open(sys.argv[2]))
assert r["calibration"] == sys.argv[2]
assert cal["shuffle_rows_per_second_per_thread"]["partition_16"] > 0, cal
for s in r["summary"]:
    m = s["model"]
    assert m["seconds"] > 0 and m["phases"]["partition"] > 0 and m["phases"]["consume"] > 0, s
    assert abs(m["measured_over_model"] - s["median_seconds"] / m["seconds"]) < 1e-9 * m["measured_over_model"], s
    assert ("count" in m["phases"]) == (s["design"] == "mpi-alltoallv"), s
PY
then passed=$((passed + 1)); echo "ok   shuffle_model"; else failed=$((failed + 1)); echo "FAIL shuffle_model"; cat "$work/out" "$work/err"; fi
expect_success model_sort_merge_thesis "merge levels 3 . 3 [(]R" model --calibration "$work/cal.json" --algorithm sort-merge --inner 32M --outer 32M --ranks 2 --subranges 1
expect_success join_with_model "model s" join --inner 100K --outer 100K --calibration "$work/cal.json"
echo '{"rates": 1}' > "$work/bad_cal.json"
expect_failure malformed_calibration "is not one 'hpcdb calibrate' wrote" model --calibration "$work/bad_cal.json"
# A calibration the model cannot use (a rate of 0) ends every rank with the model's message.
python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); c["rates_tuples_per_second_per_thread"]["scan"] = 0; json.dump(c, open(sys.argv[2], "w"))' \
  "$work/cal.json" "$work/zero_cal.json"
expect_failure model_zero_rate "^hpcdb: error: model: P_scan must be positive" model --calibration "$work/zero_cal.json"
expect_failure missing_calibration "cannot open calibration file" join --inner 1000 --outer 1000 --calibration "$work/none.json"

# --- transactions
expect_failure txn_bad_cc "concurrency control" txn --cc optimistic
expect_failure txn_bad_transport "unknown transport" txn --transport carrier-pigeon
expect_failure txn_bad_isolation "isolation" txn --isolation snapshot
expect_failure txn_bad_remote_prob "remote-prob" txn --remote-prob 1.5
expect_failure txn_check_without_data "--check needs record access" txn --check --no-data --transactions 10
expect_failure tpcc_bad_mix "unknown mix 'random'" txn --workload tpcc --mix random --transactions 10
expect_failure tpcc_no_data "--workload tpcc needs data access" txn --workload tpcc --no-data --transactions 10
expect_failure txn_bad_workload "unknown workload 'tpch'" txn --workload tpch --transactions 10
expect_failure txn_bad_testing_fault "unknown testing fault 'late-release' \\(use none, early-release, skip-undo, ignore-no-vote or no-next-key-lock\\)" txn --testing-fault late-release --transactions 10
expect_failure txn_bad_homes "unknown --homes 'some'" txn --workload tpcc --homes some --transactions 10
expect_failure txn_next_key_fault_synthetic "--testing-fault no-next-key-lock needs --workload tpcc under --isolation serializable" txn --testing-fault no-next-key-lock --transactions 10
expect_failure txn_next_key_fault_read_committed "--testing-fault no-next-key-lock needs --workload tpcc under --isolation serializable" txn --workload tpcc --isolation read-committed --testing-fault no-next-key-lock --transactions 10
expect_failure trace_without_dir "--workload trace needs --trace-dir" txn --workload trace --transactions 10
expect_failure trace_dir_missing "lock trace directory '$work/no-traces' does not exist" txn --workload trace --trace-dir "$work/no-traces" --transactions 10
mkdir -p "$work/bad-traces" && printf '1,12,IX,neword\n1,13,XX,neword\n' > "$work/bad-traces/wh000001.csv"
mkdir -p "$work/no-meta-traces" && cp "$work/bad-traces/wh000001.csv" "$work/no-meta-traces/"
echo 1000 > "$work/bad-traces/max-locks-per-wh.meta"
expect_failure trace_check "--check needs data, and a lock trace replay has none" txn --workload trace --trace-dir "$work/bad-traces" --check --transactions 10
expect_failure trace_out_synthetic "--trace-out records TPC-C" txn --trace-out "$work/t" --transactions 10
expect_failure trace_out_not_a_directory "cannot write lock trace directory" txn --workload tpcc --trace-out /dev/null --transactions 10
if [ "$ranks" -lt 2 ]; then
  expect_failure txn_one_rank "at least 2 ranks" txn --transactions 10
else
  expect_failure txn_all_lock_agents "--lock-agents must be between 1 and" txn --lock-agents "$ranks" --transactions 10
  expect_failure txn_no_remote_agents "needs lock agents on another node" txn --remote-prob 0.1 --transactions 10
  expect_failure txn_dead_rank "killing itself|exited on signal|died" txn --duration 20 --fail-rank $((ranks - 1)) --fail-after 0.5
  # A lock agent that stops answering: its transaction agents give up after --reply-timeout and end the job.
  expect_failure txn_hung_lock_agent "lock agent rank 0 did not answer within 1 s" txn --transactions 2000 --fail-rank 0 --fail-after 0 --fail-how hang --reply-timeout 1
  # A transaction agent that stops answering: the lock agents notice the silence.
  # The limit is long enough that a healthy agent on a loaded machine is never
  # silent that long: the hanging one is named, not a slow one beside it.
  expect_failure txn_hung_txn_agent "transaction agent rank $((ranks - 1)) (holds locks at lock agent rank 0 but has sent nothing|has sent nothing to lock agent rank 0) for 5 s" txn --transactions 2000 --fail-rank $((ranks - 1)) --fail-after 0 --fail-how hang --reply-timeout 5
  expect_success txn_help "--remote-prob" txn --help
  for transport in one-sided one-sided-rma two-sided; do
    expect_success "txn_check_$transport" "history check: serializable" txn --transport "$transport" --transactions 200 --locks-per-agent 30 --locks-per-txn 4 --lock-timeout 2 --check
  done
  expect_success txn_read_committed "history check: no dirty reads" txn --isolation read-committed --cc wait-die --transactions 200 --locks-per-agent 30 --locks-per-txn 4 --check
  expect_success txn_no_wait_locks_only "locks only" txn --cc no-wait --no-data --duration 0.5 --locks-per-agent 10K
  # TPC-C: consistency conditions and the history check on every rank count; lock traces out and back in.
  expect_success tpcc_check "consistency 4 .*holds" txn --workload tpcc --warehouses 2 --transactions 150 --order-capacity 200 --check
  expect_success tpcc_read_committed_no_wait "history check: no dirty reads" txn --workload tpcc --warehouses 1 --isolation read-committed --cc no-wait --mix trace --transactions 150 --order-capacity 200 --check
  expect_success tpcc_trace_out "new-order: [0-9]+ per minute" txn --workload tpcc --warehouses 2 --transactions 100 --order-capacity 200 --trace-out "$work/traces"
  expect_success tpcc_trace_replay "traces of 2 warehouse" txn --workload trace --trace-dir "$work/traces" --transactions 200
  expect_failure trace_no_meta "max-locks-per-wh.meta': No such file or directory; a lock trace directory holds" txn --workload trace --trace-dir "$work/no-meta-traces" --transactions 10
  # A replay of every recorded transaction asks for the recorded locks (one warehouse: replayed in commit order).
  if [ "$ranks" -eq 2 ]; then
    timeout 900 "${mpirun[@]}" "$hpcdb" txn --workload tpcc --warehouses 1 --transactions 150 --order-capacity 200 --json "$work/recorded.json" --trace-out "$work/traces1" > /dev/null 2> "$work/err" &&
    timeout 900 "${mpirun[@]}" "$hpcdb" txn --workload trace --trace-dir "$work/traces1" --transactions "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['committed'])" "$work/recorded.json")" --json "$work/replayed.json" > /dev/null 2>> "$work/err"
    if python3 - "$work/recorded.json" "$work/replayed.json" "$work/traces1" <<'PY'
import json, sys
rec, rep, traces = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
lines = [l.rstrip("\n").split(",") for l in open(traces + "/wh000001.csv")]
assert len(lines) == round(rec["locks_per_committed_txn"] * rec["committed"]), (len(lines), rec)
assert len({l[0] for l in lines}) == rec["committed"] == rep["committed"] and rep["partitions"] == 1
per_wh = int(open(traces + "/max-locks-per-wh.meta").read())
assert max(int(l[1]) for l in lines) == per_wh - 1 and {l[2] for l in lines} <= {"IS", "IX", "S", "SIX", "X"}
# Locks released early and asked for again are held through a replay: those few requests are dropped.
assert 0.99 * len(lines) <= rep["lock_requests"] <= len(lines), (rep["lock_requests"], len(lines))
for name, t in rec["types"].items():
    assert rep["types"][name]["committed"] == t["committed"], name
    assert abs(rep["types"][name]["locks_per_committed_txn"] - t["locks_per_committed_txn"]) <= 0.01 * t["locks_per_committed_txn"], name
PY
    then passed=$((passed + 1)); echo "ok   tpcc_trace_round_trip"; else failed=$((failed + 1)); echo "FAIL tpcc_trace_round_trip"; cat "$work/err"; fi
  fi
  expect_failure tpcc_order_capacity "has no room for more orders .*raise --order-capacity" txn --workload tpcc --warehouses 1 --transactions 400 --order-capacity 1
  timeout 900 "${mpirun[@]}" "$hpcdb" txn --workload tpcc --warehouses 2 --transactions 100 --order-capacity 200 --check --json - > "$work/tpcc.json" 2> "$work/err"
  if python3 - "$work/tpcc.json" "$ranks" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ranks = int(sys.argv[2])
assert r["workload"] == "tpcc" and r["partitions"] == 2
assert list(r["types"]) == ["new-order", "payment", "order-status", "delivery", "stock-level"]
done = sum(t["committed"] + t["rolled_back"] + t["given_up"] for t in r["types"].values())
assert done == 100 * (ranks - 1), done
assert r["committed"] == sum(t["committed"] for t in r["types"].values())
assert r["aborted"] == sum(r["aborts_by_cause"].values())
assert abs(r["new_orders_per_minute"] - 60 * (r["types"]["new-order"]["committed"] + r["types"]["new-order"]["rolled_back"]) / r["seconds"]) < 1e-6 * r["new_orders_per_minute"] + 1e-9
assert abs(sum(r["time_split"][k] for k in ["locking", "data_and_program", "vote", "end"]) - 1) < 1e-9
assert r["locks_per_committed_txn"] > 40 and r["lock_agents_per_committed_txn"] >= 1
assert r["history_check"]["ok"] and [c["violations"] for c in r["consistency"]] == [0] * 12
assert r["testing_fault"] == "none"
for t in r["types"].values():
    assert set(t["latency"]) == {"count", "median_us", "mean_us", "p99_us"}
PY
  then passed=$((passed + 1)); echo "ok   tpcc_json"; else failed=$((failed + 1)); echo "FAIL tpcc_json"; cat "$work/err"; fi
  expect_failure trace_malformed_line "wh000001.csv:2: not a lock trace line" txn --workload trace --trace-dir "$work/bad-traces" --transactions 10
  if [ "$ranks" -ge 3 ]; then
    expect_failure tpcc_too_few_warehouses "every lock agent needs a partition of its own" txn --workload tpcc --warehouses 1 --lock-agents 2 --transactions 10
  fi
  timeout 600 "${mpirun[@]}" "$hpcdb" txn --duration 0.5 --lock-agents 1 --vote-no-prob 0.2 --json - > "$work/txn.json" 2> "$work/err"
  if python3 - "$work/txn.json" "$ranks" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ranks = int(sys.argv[2])
need = ["workload", "transport", "isolation", "cc", "ranks", "lock_agents", "txn_agents", "seconds", "committed", "aborted",
        "abort_rate", "transactions_per_second", "lock_requests", "lock_requests_per_second", "locks_per_committed_txn",
        "lock_agents_per_committed_txn", "two_phase_commits", "latency", "model"]
for k in need:
    assert k in r, k
assert r["ranks"] == ranks and r["lock_agents"] == 1 and r["txn_agents"] == ranks - 1
assert r["committed"] > 0 and r["locks_per_committed_txn"] == 10
assert r["two_phase_commits"] == 0 and r["aborted"] == 0  # one lock agent: no 2PC, so no votes to lose
assert abs(r["transactions_per_second"] - r["committed"] / r["seconds"]) < 1e-6 * r["transactions_per_second"]
for k in ["lock_round_trip", "lock_queueing", "lock_processing", "vote", "committed_transaction", "ping_same_node"]:
    assert set(r["latency"][k]) == {"count", "median_us", "mean_us", "p99_us"}, k
assert r["latency"]["lock_round_trip"]["count"] == r["lock_requests"]
assert r["model"]["transactions_per_second"] > 0
PY
  then passed=$((passed + 1)); echo "ok   txn_json"; else failed=$((failed + 1)); echo "FAIL txn_json"; cat "$work/err"; fi
fi

# --- the message layer's benchmarks and its calibrated threshold
expect_failure netbench_bad_test "unknown --tests entry 'throughput'" netbench --tests throughput
expect_failure netbench_bad_transport "unknown --transports entry 'carrier-pigeon'" netbench --transports carrier-pigeon
expect_failure netbench_threshold_beyond_ring "--threshold 65536 does not fit a ring of --ring-bytes 65536" netbench --ring-bytes 64Ki --threshold 64Ki
expect_failure netbench_zero_window "--window must be between 1 and 4096" netbench --window 0
expect_failure netbench_zero_head_batch "--head-batch must be at least 1" netbench --head-batch 0
expect_failure netbench_sizes_backwards "ends before it starts" netbench --sizes 4Ki:8
expect_failure netbench_bad_policy "unknown --priority-policy 'fair'" netbench --priority-policy fair
expect_failure all_to_all_bad_schedule "the schedule must be unsynchronized, synchronized or random, not 'round-robin'" \
  netbench --all-to-all --schedules synchronized,round-robin
expect_failure all_to_all_with_tests "--all-to-all runs alone: leave out --tests and --transports" netbench --all-to-all --tests latency
expect_failure all_to_all_tiny_chunk "--exchange-chunk must be between 64 B and 1 GiB" netbench --all-to-all --exchange-chunk 8
expect_failure all_to_all_too_much "use a smaller --per-peer" netbench --all-to-all --per-peer 64Ti
if [ "$ranks" -lt 2 ]; then
  expect_failure all_to_all_one_rank "at least 2" netbench --all-to-all
else
  for exchange in messages puts; do
    timeout 900 "${mpirun[@]}" "$hpcdb" netbench --all-to-all --exchange "$exchange" --per-peer 3Mi --exchange-chunk 256Ki \
      --rounds 2 --bandwidth 10 --json "$work/a2a.json" > "$work/out" 2> "$work/err"
    if python3 - "$work/a2a.json" "$ranks" "$exchange" "$work/out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ranks, exchange, text = int(sys.argv[2]), sys.argv[3], open(sys.argv[4]).read()
assert r["test"] == "all-to-all" and r["ranks"] == ranks and r["transport"] == exchange
assert r["bytes_per_rank"] == 3 * 2**20 * (ranks - 1)
assert [s["schedule"] for s in r["schedules"]] == ["synchronized", "unsynchronized", "random"]
for s in r["schedules"]:
    assert s["median_seconds"] > 0 and len(s["rounds"]) == 2, s
    assert len(s["sending_seconds_per_rank"]) == ranks
    # A rank's sending ends within its round, whose time is the slowest rank's:
    # per round sending <= seconds, so the medians over rounds keep that order.
    assert all(0 <= t <= s["median_seconds"] * (1 + 1e-9) for t in s["sending_seconds_per_rank"]), s
    assert s["over_ideal"] > 0
waits = {s["schedule"]: max(s["waiting_seconds_per_rank"]) for s in r["schedules"]}
assert waits["unsynchronized"] == 0 and waits["random"] == 0, waits
for name in ["synchronized", "unsynchronized", "random", "thesis section 6.1"]:
    assert name in text, name
PY
    then passed=$((passed + 1)); echo "ok   all_to_all_$exchange"; else failed=$((failed + 1)); echo "FAIL all_to_all_$exchange"; tail -20 "$work/err"; fi
  done
fi
if [ "$ranks" -lt 2 ]; then
  expect_failure netbench_one_rank "at least 2" netbench
else
  expect_failure netbench_mixed_without_threads "--net-threads 1 or more" netbench --tests mixed --net-threads 0 --duration 0.1
  timeout 900 "${mpirun[@]}" "$hpcdb" netbench --rounds 1 --sizes 8,4Ki,64Ki --latency-sizes 8,2Ki --bytes-per-size 256Ki \
    --window 16 --duration 0.1 --flood-sizes 4Ki --mixed-sizes 64,16Ki --ring-bytes 128Ki --json "$work/net.json" > "$work/out" 2> "$work/err"
  if python3 - "$work/net.json" "$ranks" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ranks = int(sys.argv[2])
assert r["ranks"] == ranks
bw = {(e["transport"], e["bytes"]): e["median_bytes_per_second"] for e in r["bandwidth"]}
for t in ["mpi", "ring", "two-sided", "hybrid"]:
    for size in [8, 4096, 65536]:
        if t == "ring" and size > 128 * 1024 - 32:
            continue
        assert bw[(t, size)] > 0, (t, size)
assert ("ring", 65536) in bw  # 64 KiB still fits a 128 KiB ring
lat = {(e["transport"], e["bytes"]): e["median_half_round_trip_seconds"] for e in r["latency"]}
assert len(lat) == 8 and all(v > 0 for v in lat.values()), lat
receivers = {e["receivers"] for e in r["broadcast"]}
assert receivers == set(range(1, ranks)), receivers
assert {e["transport"] for e in r["broadcast"]} == {"mpi-bcast", "mpi-sends", "layer-sends"}
assert [m["transport"] for m in r["mixed"]] == ["mpi", "hybrid"]
variants = [p["variant"] for p in r["priority"]]
assert len(variants) == 4 and all(p["round_trips"] > 0 for p in r["priority"]), r["priority"]
assert r["message_layer"]["threshold_source"] == "default" and r["message_layer"]["threshold_bytes"] == 8192
PY
  then passed=$((passed + 1)); echo "ok   netbench_json"; else failed=$((failed + 1)); echo "FAIL netbench_json"; tail -20 "$work/err"; fi
  expect_success calibrate_message_threshold "message layer hybrid threshold" calibrate --tuples 64Ki --repeat 1 --output "$work/cal_layer.json"
  expect_success netbench_calibrated_threshold "threshold [0-9]+ bytes \(calibration" netbench --calibration "$work/cal_layer.json" --tests latency --transports hybrid --latency-sizes 8 --rounds 1
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
