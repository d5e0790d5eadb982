#!/usr/bin/env bash
# Runs each libFuzzer target for a fixed time from its corpus.
# Usage: scripts/fuzz.sh BUILD_DIR SECONDS TARGET...
# The corpus in tests/fuzz/corpus/TARGET is read, never written: new inputs
# go to BUILD_DIR/corpus/TARGET, findings to BUILD_DIR/findings/TARGET. Exit 1
# if any target found a crash, a leak, a sanitizer report or a timeout.
set -uo pipefail
build=$1
seconds=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
status=0
for target in "$@"; do
  corpus="$build/corpus/$target"
  findings="$build/findings/$target"
  mkdir -p "$corpus" "$findings" "$root/tests/fuzz/corpus/$target"
  log="$build/fuzz_$target.log"
  echo "fuzz_$target: $seconds s"
  # -timeout: an input that takes over 10 s counts as a hang.
  "$build/tests/fuzz/fuzz_$target" "$corpus" "$root/tests/fuzz/corpus/$target" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
    -artifact_prefix="$findings/" -print_final_stats=1 > "$log" 2>&1
  rc=$?
  runs=$(grep -m1 '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  if [ "$rc" -ne 0 ]; then
    status=1
    echo "fuzz_$target: FINDING after ${runs:-?} runs (exit $rc); see $log and $findings/"
    grep -m5 -E 'ERROR|SUMMARY|Assertion|uncaught|deadly' "$log" | sed 's/^/    /'
  else
    echo "fuzz_$target: ${runs:-?} runs, no finding ($(grep -m1 'cov:' "$log" | tail -1 >/dev/null; grep 'DONE\|pulse' "$log" | tail -1))"
  fi
done
exit $status
