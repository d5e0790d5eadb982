#!/usr/bin/env bash
# hpcdb ssb from the command line: the 13 SSB queries with the benchmark's
# constants at scale factor 1 (all at once and one at a time), and random
# ones at 0.1, answered alike by DuckDB on the CSV files of 'hpcdb generate
# --ssb' (same data), in the local and the decoupled deployment, every query
# engine's answers counted; answers while point updates change columns the
# queries read, each checked against the data as it was with the updates
# its scans had taken; JSON fields; point queries with updates; a query
# engine that connects late; bad options; and a rank that dies or hangs,
# which ends the job with a message naming it.
# Usage: ssb_test.sh path/to/hpcdb [path/to/python-with-duckdb (default $HPCDB_PYTHON)] [bench/ssb_check.py]
# ctest-ranks: 1 2 3
# ctest-timeout: 2700
set -u
hpcdb=$1
python=${2:-${HPCDB_PYTHON:-}}
check=${3:-$(cd "$(dirname "$0")/../../.." && pwd)/bench/ssb_check.py}
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

run_ok() {  # run_ok NAME REGEX ARGS...: exit 0 and REGEX on standard output
  local name=$1 regex=$2
  shift 2
  timeout 600 "${mpirun[@]}" "$hpcdb" "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  if [ $rc -eq 0 ] && grep -Eq -e "$regex" "$work/out"; then report "$name" yes; else report "$name" no "$work/out" "$work/err"; fi
}

run_fails() {  # run_fails NAME CODE REGEX ARGS...: exit CODE within 30 s, REGEX on standard error
  local name=$1 code=$2 regex=$3
  shift 3
  local start=$SECONDS
  timeout 600 "${mpirun[@]}" "$hpcdb" "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  if [ $rc -eq "$code" ] && grep -Eq -e "$regex" "$work/err" && [ $((SECONDS - start)) -le 30 ]; then
    report "$name" yes
  else
    echo "     (exit $rc after $((SECONDS - start)) s)"
    report "$name" no "$work/err"
  fi
}

# dies NAME LIMIT REGEX ARGS...: non-zero exit within LIMIT s, REGEX on standard error
dies() {
  local name=$1 limit=$2 regex=$3
  shift 3
  local start=$SECONDS
  timeout $((limit + 60)) "${mpirun[@]}" "$hpcdb" "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -Eq -e "$regex" "$work/err" && [ $((SECONDS - start)) -le "$limit" ]; then
    report "$name" yes
  else
    echo "     (exit $rc after $((SECONDS - start)) s)"
    report "$name" no "$work/err"
  fi
}

deployments=(local)
[ "$ranks" -ge 2 ] && deployments+=(decoupled)
if [ "$ranks" -eq 1 ] || [ "$ranks" -ge 3 ]; then local_ranks_ok=yes; else local_ranks_ok=yes; fi

# --- answers against DuckDB
mkdir -p "$work/sf1" "$work/sf01"
"$hpcdb" generate --ssb --scale 1 --seed 3 --output-dir "$work/sf1" > /dev/null 2>&1 || report generate_sf1 no /dev/null
"$hpcdb" generate --ssb --scale 0.1 --seed 3 --output-dir "$work/sf01" > /dev/null 2>&1 || report generate_sf01 no /dev/null
sf1_answers=()
sf01_answers=()
for d in "${deployments[@]}"; do
  run_ok "standard_sf1_$d" "queries/hour" ssb --scale 1 --seed 3 --deployment "$d" --queries standard \
    --answers "$work/standard_$d.json"
  sf1_answers+=("$work/standard_$d.json")
  run_ok "standard_sf1_one_at_a_time_$d" "queries/hour" ssb --scale 1 --seed 3 --deployment "$d" --queries standard \
    --clients 1 --predicate-evaluation per-query --answers "$work/standard_one_$d.json"
  sf1_answers+=("$work/standard_one_$d.json")
  run_ok "random_sf01_$d" "queries/hour" ssb --scale 0.1 --seed 3 --deployment "$d" --clients 8 --duration 2 \
    --answers "$work/random_$d.json" --json "$work/random_$d.doc.json"
  sf01_answers+=("$work/random_$d.json")
done
if [ "$ranks" -ge 3 ]; then
  run_ok random_two_storage_ranks "queries/hour" ssb --scale 0.1 --seed 3 --deployment decoupled --storage-ranks 2 \
    --placement "part=0,1;customer=1" --clients 8 --duration 2 --semi-join-filters off --tuple-free off \
    --answers "$work/random_split.json"
  sf01_answers+=("$work/random_split.json")
fi
# 64 queries in one cycle: most of them filter lo_partkey (200,000 values at
# scale factor 1), whose value table the scan holds coded.
d=${deployments[-1]}
run_ok "standard_five_rounds_sf1_$d" "queries/hour" ssb --scale 1 --seed 3 --deployment "$d" --queries standard \
  --rounds 5 --answers "$work/standard_rounds_$d.json"
engines=$ranks
# Every query engine of every run answered each of the 13 queries once (five
# times in the five-round run).
"$python" "$check" --data "$work/sf1" --answers "${sf1_answers[@]}" --expect-per-engine 13 --exact > "$work/check1" 2>&1 &&
  report standard_answers_equal_duckdb yes || report standard_answers_equal_duckdb no "$work/check1"
"$python" "$check" --data "$work/sf1" --answers "$work/standard_rounds_$d.json" --expect-per-engine 65 --exact \
  > "$work/check_rounds" 2>&1 && report standard_five_rounds_equal_duckdb yes ||
  report standard_five_rounds_equal_duckdb no "$work/check_rounds"
"$python" "$check" --data "$work/sf01" --answers "${sf01_answers[@]}" --expect-per-engine 3 > "$work/check2" 2>&1 &&
  report random_answers_equal_duckdb yes || report random_answers_equal_duckdb no "$work/check2"

# --- answers while updates run: every update sets a column the queries read
# (customer's region: flights 3 and 4 filter and group by it; lineorder's
# discount: flight 1 filters by it and sums it); each answer must equal the
# data with exactly the updates its scans had taken, and some must have seen
# some updates (else this checks nothing).
for column in customer:c_region lineorder:lo_discount; do
  table=${column%%:*}
  # Whether an answer of the window comes after an update depends on the
  # machine's speed (a loaded one answers twice in 2 s, both before the first
  # update): the window doubles, up to 16 s, until one does. Every answer of
  # every window must equal the data with the updates it saw.
  seen_update=no
  for duration in 2 4 8 16; do
    run_ok "answers_under_updates_${table}_${duration}s" "point queries: .*updates" ssb --scale 0.1 --seed 3 --clients 2 \
      --duration "$duration" --kv-table "$table" --update-column "${column#*:}" --lookup-clients 2 --update-fraction 1 \
      --answers "$work/updates_$table.json"
    if ! "$python" "$check" --data "$work/sf01" --answers "$work/updates_$table.json" --expect-per-engine 1 > "$work/check_$table" 2>&1; then
      report "answers_with_updates_equal_duckdb_${table}_${duration}s" no "$work/check_$table"
      break
    fi
    if "$python" - "$work/updates_$table.json" "$table" >> "$work/check_$table" 2>&1 << 'PY'; then
import json, sys
doc = json.load(open(sys.argv[1]))
logged = sum(len(log) for log in doc["updates"][sys.argv[2]])
seen = sorted({v for a in doc["answers"] for k, v in a["seen"].items() if k.startswith(sys.argv[2] + "/")})
print(f"{logged} updates logged; answers saw {len(seen)} distinct prefixes, up to {seen[-1] if seen else 0}")
assert logged > 0 and seen and seen[-1] > 0, "no answer saw an update"
PY
      seen_update=yes
      break
    fi
  done
  report "updates_seen_as_logged_$table" "$seen_update" "$work/check_$table"
done

# --- JSON fields
"$python" - "$work/random_local.doc.json" > "$work/fields" 2>&1 << 'PY' && report json_fields yes || report json_fields no "$work/fields"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["command"] == "ssb"
assert d["throughput"]["queries_per_hour"] > 0 and d["throughput"]["completed"] > 0
# The clients' answers (8 per query engine) lie between the clients times the fewest and times the most
# a client got (how many a window holds depends on the machine's speed: no client is required to have one).
by_client = d["throughput"]["by_a_client"]
clients = d["config"]["clients_per_engine"] * d["config"]["query_engines"]
assert clients * by_client["fewest"] <= d["throughput"]["completed"] <= clients * by_client["most"]
# Without point-query clients, priorities (auto) are off: nothing gives way.
assert d["config"]["priorities"] == "off" and d["config"]["bulk_threads"] == "normal"
assert d["config"]["scan_threads"] >= 1 and d["config"]["cycle_queries"] == 64
assert d["storage"]["memory"]["peak_resident_bytes"] > d["storage"]["fragment_bytes"]
assert all(k in d["query_engines"]["phase_seconds"] for k in ("queue_wait", "dimension", "fact", "probe", "aggregate"))
assert [f["flight"] for f in d["flights"]] == [1, 2, 3, 4, "all"]
assert all(k in d["flights"][4] for k in ("p50_s", "p90_s", "p99_s", "queries_per_hour"))
scans = {s["table"]: s for s in d["storage"]["scans"]}
assert scans["lineorder"]["rows_scanned"] > 0 and scans["lineorder"]["tuple_section_bytes_saved"] > 0
assert scans["lineorder"]["zones"] >= scans["lineorder"]["cycles"] > 0
assert all(k in scans["lineorder"]["phase_seconds"] for k in ("plan", "evaluate", "emit", "ship"))
assert d["bytes_moved"]["saved_by_tuple_free_results"] > 0
assert d["query_engines"]["cycles"] > 0 and len(d["ranks"]) >= 1
PY

# --- point queries, priorities, a late engine
run_ok lookups_and_updates "point queries: .*updates" ssb --scale 0.05 --clients 4 --duration 2 --lookup-clients 2 \
  --update-fraction 0.3
"$python" - "$work/out" > /dev/null 2>&1 << 'PY' && report priorities_auto_with_point_queries yes ||
  report priorities_auto_with_point_queries no "$work/out"
import sys
assert "priorities on" in open(sys.argv[1]).read()
PY
run_ok lookups_priorities_off "point queries" ssb --scale 0.05 --clients 4 --duration 2 --lookup-clients 2 --priorities off \
  --kv-table lineorder
run_ok late_engine "queries/hour" ssb --scale 0.05 --clients 4 --duration 2 --late-engine 0 --late-by 2

# --- bad options end every rank at once
run_fails bad_deployment 2 "--deployment must be local or decoupled" ssb --deployment both
run_fails bad_scale 2 "--scale must be a scale factor" ssb --scale 0
run_fails bad_query 2 "no SSB query 'Q9.9'" ssb --queries Q1.1,Q9.9
run_fails bad_switch 2 "--priorities must be on or off" ssb --priorities maybe
run_fails bad_evaluation 2 "--predicate-evaluation must be auto, per-query or indexed" ssb --predicate-evaluation fast
run_fails bad_cycle_queries 2 "--cycle-queries must be from 1" ssb --cycle-queries 0
run_fails bad_update_column 2 "--update-column c_name: updates of table customer may set c_mktsegment" ssb \
  --lookup-clients 1 --update-fraction 0.5 --update-column c_name
run_fails no_network_threads 2 "network threads" ssb --net-threads 0
run_fails bad_idle_sleep 2 "--net-idle-sleep must be from 0 to 1000000" ssb --net-idle-sleep 2000000
run_fails lookups_without_kv 2 "needs a key-value table" ssb --kv-table none --lookup-clients 1
run_fails updates_without_column 2 "no column that updates may change" ssb --kv-table supplier --lookup-clients 1 --update-fraction 0.5
run_fails too_many_storage_ranks 2 "needs at least one query-engine rank|must equal the number of ranks" ssb --storage-ranks $((ranks + 1))
run_fails bad_placement 2 "--placement" ssb --placement "part=9"
run_fails warmup_too_long 2 "--warmup" ssb --duration 2 --warmup 3

# --- a rank that dies or stops ends the job with a message
if [ "$ranks" -ge 2 ]; then
  dies storage_rank_killed 60 "rank 0 is killing itself|exited on signal" ssb --scale 0.05 --clients 4 --duration 30 \
    --fail-rank 0 --fail-after 2
  dies query_rank_killed 60 "rank 1 is killing itself|exited on signal" ssb --scale 0.05 --clients 4 --duration 30 \
    --fail-rank 1 --fail-after 2
  # (a reply timeout of a few seconds: long enough that a busy machine does
  # not make a live rank look silent)
  dies storage_rank_hangs 60 "storage engine rank 0 has (sent nothing|not answered)" ssb --scale 0.05 --clients 4 \
    --duration 120 --reply-timeout 8 --fail-rank 0 --fail-how hang --fail-after 2
  dies query_rank_hangs 60 "query engine 0 \(rank 1\) has sent nothing" ssb --scale 0.05 --clients 4 --duration 120 \
    --reply-timeout 8 --fail-rank 1 --fail-how hang --fail-after 2
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
