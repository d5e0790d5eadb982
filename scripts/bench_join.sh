#!/usr/bin/env bash
# The join benchmark: 32M x 32M tuples on 2 ranks, 5 repetitions
# (ALGORITHM=radix or sort-merge, RANKS=2 by default).
# First calibrates the performance model on this machine, with all ranks
# busy at once (CALIBRATE=0 skips it), so that every phase is printed next
# to the model's prediction from the rates measured just before: on a
# shared machine whose speed varies from hour to hour, that tells a slow
# machine from a slow join. Prints the per-run summary with the median, then
# the JSON of every run (with the model's figures).
set -euo pipefail
build=${1:-build}
ranks=${RANKS:-2}
out=bench/results
mkdir -p "$out"
algorithm=${ALGORITHM:-radix}
stamp=$(date +%Y%m%d-%H%M%S)
json="$out/join-$algorithm-$stamp.json"
model=()
if [ "${CALIBRATE:-1}" != 0 ]; then
  calibration="$out/calibration-$stamp.json"
  mpirun --oversubscribe -np "$ranks" "$build/hpcdb" calibrate --concurrent --output "$calibration"
  echo
  model=(--calibration "$calibration")
fi
mpirun --oversubscribe -np "$ranks" "$build/hpcdb" join --algorithm "$algorithm" \
  --inner 32M --outer 32M --repeat 5 --json "$json" "${model[@]}" "${@:2}"
echo
echo "JSON ($json):"
cat "$json"
