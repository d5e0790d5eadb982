#!/usr/bin/env bash
# hpcdb generate --ssb: the five tables as CSV files, the same bytes whatever
# the number of ranks, the benchmark's row counts, DuckDB reading them back
# (when bench/.venv has it), and bad options ending every rank at once.
# Usage: ssb_generate_test.sh path/to/hpcdb [path/to/python-with-duckdb (default $HPCDB_PYTHON)]
# ctest-ranks: 1 3
# ctest-timeout: 1800
set -u
hpcdb=$1
python=${2:-${HPCDB_PYTHON:-}}
ranks=${RANKS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
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

run_fails() {  # run_fails NAME REGEX ARGS...: exit 2 within 30 s, REGEX on standard error
  local name=$1 regex=$2
  shift 2
  local start=$SECONDS
  timeout 300 mpirun --oversubscribe --bind-to none -np "$ranks" "$hpcdb" "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  if [ $rc -eq 2 ] && grep -Eq -e "$regex" "$work/err" && [ $((SECONDS - start)) -le 30 ]; then
    report "$name" yes
  else
    echo "     (exit $rc after $((SECONDS - start)) s)"
    report "$name" no "$work/err"
  fi
}

mkdir -p "$work/one" "$work/many"
"$hpcdb" generate --ssb --scale 0.02 --seed 7 --output-dir "$work/one" > "$work/out1" 2>&1
rc1=$?
timeout 900 mpirun --oversubscribe --bind-to none -np "$ranks" "$hpcdb" generate --ssb --scale 0.02 --seed 7 \
  --output-dir "$work/many" > "$work/out" 2> "$work/err"
rc=$?
same=yes
for t in lineorder customer supplier part date; do
  cmp -s "$work/one/$t.csv" "$work/many/$t.csv" || same=no
done
[ $rc1 -eq 0 ] && [ $rc -eq 0 ] && [ "$same" = yes ] && grep -q "lineorder.csv" "$work/out" && report "same_files_on_${ranks}_ranks" yes ||
  report "same_files_on_${ranks}_ranks" no "$work/out" "$work/err"

counts=$(for t in customer supplier part date; do echo -n "$(($(wc -l < "$work/many/$t.csv") - 1)) "; done)
[ "$counts" = "600 40 4000 2557 " ] && report row_counts yes || { echo "     counts: $counts"; report row_counts no "$work/out"; }
lines=$(($(wc -l < "$work/many/lineorder.csv") - 1))
[ "$lines" -gt 110000 ] && [ "$lines" -lt 130000 ] && report lineorder_about_4_lines_per_order yes ||
  { echo "     lineorder rows: $lines"; report lineorder_about_4_lines_per_order no "$work/out"; }
head -1 "$work/many/lineorder.csv" | grep -q "^lo_orderkey,lo_linenumber,lo_custkey" && report csv_header yes || report csv_header no "$work/many/lineorder.csv"

# Other seeds give other data.
mkdir -p "$work/other"
"$hpcdb" generate --ssb --scale 0.02 --seed 8 --output-dir "$work/other" > /dev/null 2>&1
cmp -s "$work/one/lineorder.csv" "$work/other/lineorder.csv" && report seed_changes_data no "$work/out1" || report seed_changes_data yes

if [ -n "$python" ] && "$python" -c "import duckdb" 2> /dev/null; then
  "$python" - "$work/many" > "$work/duck" 2>&1 << 'PY'
import duckdb, sys
d = sys.argv[1]
con = duckdb.connect()
for t in ["lineorder", "customer", "supplier", "part", "date"]:
    con.execute(f"create table \"{t}\" as select * from read_csv('{d}/{t}.csv', header=true)")
print(con.execute("select count(*) from customer where c_city = 'ALGERIA  0' or length(c_city) = 10").fetchone()[0])
print(con.execute("select count(*) from lineorder, customer where lo_custkey = c_custkey").fetchone()[0] ==
      con.execute("select count(*) from lineorder").fetchone()[0])
print(con.execute("select min(d_date), count(*) from \"date\" where d_datekey = 19920101").fetchone())
PY
  grep -q "^600$" "$work/duck" && grep -q "^True$" "$work/duck" && grep -q "January 1, 1992" "$work/duck" &&
    report duckdb_reads_the_files yes || report duckdb_reads_the_files no "$work/duck"
else
  echo "skip duckdb_reads_the_files (no DuckDB)"
fi

run_fails scale_zero "--scale must be a scale factor" generate --ssb --scale 0 --output-dir "$work"
run_fails no_directory "is not an existing directory" generate --ssb --scale 0.01 --output-dir "$work/nowhere"
run_fails join_outputs_needed "needs --output-r and --output-s" generate --inner 1K --outer 1K

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
