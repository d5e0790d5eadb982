#!/usr/bin/env bash
# The ring (cyclo) and broadcast joins, payload splitting and the generated
# key distributions from the command line: verified results for every
# algorithm and transport (UDP with injected loss and repeats), joined rows
# checked against an independent join of the generated files (Python),
# JSON fields, and bad options that end every rank at once.
# Usage: join_algorithms_test.sh path/to/hpcdb
# ctest-ranks: 1 3
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

report() {  # report NAME OK DETAILS-FILE...
  local name=$1 ok=$2
  shift 2
  if [ "$ok" = yes ]; then
    passed=$((passed + 1))
    echo "ok   $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name"
    tail -n 15 "$@" | sed 's/^/     /'
  fi
}

# run_ok NAME REGEX ARGS... : exit 0 and REGEX on standard output
run_ok() {
  local name=$1 regex=$2
  shift 2
  timeout 900 "${mpirun[@]}" "$hpcdb" "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  if [ $rc -eq 0 ] && grep -Eq -e "$regex" "$work/out"; then report "$name" yes; else report "$name" no "$work/out" "$work/err"; fi
}

# run_fails NAME REGEX ARGS... : exit 2 within 30 s, REGEX on standard error
run_fails() {
  local name=$1 regex=$2
  shift 2
  local start=$SECONDS
  timeout 300 "${mpirun[@]}" "$hpcdb" "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  if [ $rc -eq 2 ] && grep -Eq -e "$regex" "$work/err" && [ $((SECONDS - start)) -le 30 ]; then
    report "$name" yes
  else
    echo "     (exit $rc after $((SECONDS - start)) s)"
    report "$name" no "$work/err"
  fi
}

# --- every algorithm and transport, verified against the reference join
for algorithm in cyclo broadcast; do
  run_ok "${algorithm}_uniform" "verification: passed" join --algorithm "$algorithm" --inner 300K --outer 500K --verify --repeat 2
  run_ok "${algorithm}_zipf_duplicates" "verification: passed" join --algorithm "$algorithm" --inner 20K --outer 300K --zipf 1.2 --verify
  run_ok "${algorithm}_gaussian_adversarial" "verification: passed" \
    join --algorithm "$algorithm" --inner 100K --outer 200K --gaussian 0.05 --key-spacing 8 --selectivity 0.7 --verify
  run_ok "${algorithm}_uncompressed_tiny" "verification: passed" join --algorithm "$algorithm" --inner 3 --outer 5 --compression off --verify
  run_ok "${algorithm}_empty" "verification: passed" join --algorithm "$algorithm" --inner 0 --outer 1000 --verify
done
run_ok cyclo_presort_off_small_chunks "verification: passed" join --algorithm cyclo --presort off --chunk-size 4KiB --inner 200K --outer 200K --verify
run_ok broadcast_depth_one "verification: passed" join --algorithm broadcast --depth 1 --chunk-size 64KiB --inner 200K --outer 200K --verify
run_ok broadcast_ibcast "verification: passed" \
  join --algorithm broadcast --transport ibcast --chunk-size 64KiB --inner 200K --outer 300K --zipf 1.1 --verify
if grep -q "by MPI_Ibcast" "$work/out"; then report broadcast_ibcast_plan yes; else report broadcast_ibcast_plan no "$work/out"; fi
run_ok broadcast_udp_loss_repeats "verification: passed" \
  join --algorithm broadcast --transport udp --udp-loss 0.2 --udp-duplicates 0.2 --udp-phase 4 --udp-quiet-ms 2 --inner 200K --outer 400K --verify
if [ "$ranks" -gt 1 ]; then
  run_ok broadcast_udp_counts "UDP: [0-9,]+ datagrams, [1-9][0-9,]* resent, [1-9][0-9,]* dropped on purpose, [1-9][0-9,]* repeats ignored" \
    join --algorithm broadcast --transport udp --udp-loss 0.3 --udp-duplicates 0.3 --udp-phase 2 --udp-quiet-ms 2 --inner 100K --outer 300K
fi
for schedule in synchronized unsynchronized random; do
  for exchange in puts messages; do
    run_ok "radix_${schedule}_${exchange}" "verification: passed" \
      join --algorithm radix --inner 300K --outer 300K --zipf 1.1 --schedule "$schedule" --exchange "$exchange" --exchange-chunk 64KiB --verify
  done
done
run_ok radix_adversarial_keys "verification: passed" join --algorithm radix --inner 200K --outer 200K --key-spacing 8 --verify
run_ok sort_merge_gaussian "verification: passed" join --algorithm sort-merge --inner 200K --outer 400K --gaussian 0.1 --verify

# --- JSON fields of the new joins
timeout 600 "${mpirun[@]}" "$hpcdb" join --algorithm cyclo --inner 100K --outer 100K --json "$work/cyclo.json" > /dev/null 2>&1
timeout 600 "${mpirun[@]}" "$hpcdb" join --algorithm broadcast --transport udp --inner 100K --outer 100K --json "$work/udp.json" > /dev/null 2>&1
if python3 - "$work/cyclo.json" "$work/udp.json" <<'PY'
import json, sys
cyclo = json.load(open(sys.argv[1]))
udp = json.load(open(sys.argv[2]))
assert cyclo["algorithm"] == "cyclo" and cyclo["matches"] == 100000, cyclo
assert list(cyclo["phases"]) == ["sort", "distribute", "end"], cyclo["phases"]
assert cyclo["config"]["presort"] is True and cyclo["config"]["tuple_bytes"] in (8, 16)
assert udp["config"]["transport"] == "udp" and udp["matches"] == 100000
assert udp["config"]["udp"]["datagrams"] >= 0 and "phases" in udp["config"]["udp"]
PY
then report json_fields yes; else report json_fields no "$work/err"; fi

# --- payload splitting: joined rows against a join of the generated files
run_ok payload_rows "payloads: 30,000 rows" \
  join --algorithm cyclo --inner 20K --outer 30K --zipf 1.1 --seed 7 --payload-bytes 12 --output "$work/rows.csv"
timeout 600 "${mpirun[@]}" "$hpcdb" generate --inner 20K --outer 30K --zipf 1.1 --seed 7 \
  --output-r "$work/r.csv" --output-s "$work/s.csv" > /dev/null 2>&1
timeout 600 "${mpirun[@]}" "$hpcdb" join --algorithm broadcast --inner 20K --outer 30K --zipf 1.1 --seed 7 \
  --payload-bytes 12 --output "$work/rows_again.csv" > /dev/null 2>&1
if python3 - "$work/r.csv" "$work/s.csv" "$work/rows.csv" "$work/rows_again.csv" <<'PY'
import csv, sys
r = {int(row["rid"]): int(row["key"]) for row in csv.DictReader(open(sys.argv[1]))}
s = {int(row["rid"]): int(row["key"]) for row in csv.DictReader(open(sys.argv[2]))}
by_key = {}
for rid, key in r.items():
    by_key.setdefault(key, []).append(rid)
expected = sorted((rr, rs) for rs, key in s.items() for rr in by_key.get(key, []))
payload_of = {}
for path in sys.argv[3:]:
    rows = list(csv.DictReader(open(path)))
    assert sorted((int(x["rid_r"]), int(x["rid_s"])) for x in rows) == expected, path
    for x in rows:
        assert int(x["key_r"]) == r[int(x["rid_r"])] == int(x["key_s"]) == s[int(x["rid_s"])], x
        assert len(x["payload_r"]) == 24 and len(x["payload_s"]) == 24, x
        # a tuple's payload is the same in every row and every run that shows it
        for side in ("r", "s"):
            key = (side, int(x["rid_" + side]))
            assert payload_of.setdefault(key, x["payload_" + side]) == x["payload_" + side], x
PY
then report payload_rows_match_a_python_join yes; else report payload_rows_match_a_python_join no "$work/err"; fi

# --- bad options: one clear message, exit 2, every rank ends
run_fails cyclo_threads "runs one worker per rank" join --algorithm cyclo --threads 2 --inner 1000
run_fails chunk_too_small "--chunk-size must be between 64 B and 1 GiB" join --algorithm cyclo --chunk-size 8 --inner 1000
run_fails bad_presort "presort" join --algorithm cyclo --presort maybe --inner 1000
run_fails bad_transport "transport" join --algorithm broadcast --transport carrier-pigeon --inner 1000
run_fails bad_broadcast_address "is not an IPv4 address" join --algorithm broadcast --transport udp --udp-broadcast 300.1.2.3 --inner 1000
run_fails bad_udp_loss "--udp-loss must be between 0 and 0.9" join --algorithm broadcast --transport udp --udp-loss 1 --inner 1000
run_fails bad_depth "--depth must be between 1 and 64" join --algorithm broadcast --depth 0 --inner 1000
run_fails zipf_and_gaussian "either Zipf or Gaussian" join --inner 1000 --zipf 1.1 --gaussian 0.1
run_fails spacing_too_wide "key spacing must be at most 32 bits" join --inner 1000 --key-spacing 40
run_fails spaced_keys_overflow "exceeds the 64-bit key space with keys spaced by 2\\^32" join --inner 5G --outer 1 --key-spacing 32
run_fails payload_with_files "payloads" join --input-r "$work/r.csv" --input-s "$work/s.csv" --payload-bytes 8
run_fails messages_without_schedule "give it a --schedule" join --inner 1000 --exchange messages
run_fails bad_schedule "schedule" join --inner 1000 --schedule sometimes
run_fails exchange_chunk_too_small "--exchange-chunk must be between 64 B and 1 GiB" join --inner 1000 --schedule random --exchange-chunk 1
run_fails payload_too_wide "--payload-bytes must be at most 4096" join --inner 1000 --payload-bytes 5000

echo "join algorithms, $ranks rank(s): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
