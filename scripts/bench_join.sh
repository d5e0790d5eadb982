#!/usr/bin/env bash
# The join benchmark: 32M x 32M tuples on 2 ranks, 5 repetitions
# (ALGORITHM=radix or sort-merge, RANKS=2 by default).
# Prints the per-run summary with the median, then the JSON of every run.
set -euo pipefail
build=${1:-build}
ranks=${RANKS:-2}
out=bench/results
mkdir -p "$out"
algorithm=${ALGORITHM:-radix}
json="$out/join-$algorithm-$(date +%Y%m%d-%H%M%S).json"
mpirun --oversubscribe -np "$ranks" "$build/hpcdb" join --algorithm "$algorithm" \
  --inner 32M --outer 32M --repeat 5 --json "$json" "${@:2}"
echo
echo "JSON ($json):"
cat "$json"
