#!/usr/bin/env bash
# The transaction benchmark of the lock manager: the synthetic workload (10
# locks per transaction, uniform modes, no remote locks) on RANKS ranks (2 by
# default: one lock agent, one transaction agent), REPEAT runs of DURATION
# seconds per transport, interleaved so that every transport sees the same
# machine; prints the median of each figure per transport.
set -euo pipefail
build=${1:-build}
ranks=${RANKS:-2}
repeat=${REPEAT:-5}
duration=${DURATION:-3}
transports=${TRANSPORTS:-"one-sided two-sided one-sided-rma"}
out=bench/results
mkdir -p "$out"
stamp=$(date +%Y%m%d-%H%M%S)
for i in $(seq 1 "$repeat"); do
  for t in $transports; do
    mpirun -np "$ranks" "$build/hpcdb" txn --transport "$t" --duration "$duration" --lock-agents 1 \
      --json "$out/txn-$t-$stamp-$i.json" "${@:2}" > /dev/null
  done
done
python3 - "$out" "$stamp" $transports <<'PY'
import glob, json, statistics, sys
out, stamp, transports = sys.argv[1], sys.argv[2], sys.argv[3:]
print(f"{'transport':<14} {'tx/s':>9} {'abort %':>8} {'lock RTT us':>12} {'queue us':>9} {'agent us':>9} {'ping us':>8} {'model tx/s':>11}  (medians of runs)")
for t in transports:
    runs = [json.load(open(f)) for f in sorted(glob.glob(f"{out}/txn-{t}-{stamp}-*.json"))]
    med = lambda f: statistics.median(f(r) for r in runs)
    print(f"{t:<14} {med(lambda r: r['transactions_per_second']):>9.0f} {100 * med(lambda r: r['abort_rate']):>8.3f}"
          f" {med(lambda r: r['latency']['lock_round_trip']['median_us']):>12.2f}"
          f" {med(lambda r: r['latency']['lock_queueing']['median_us']):>9.2f}"
          f" {med(lambda r: r['latency']['lock_processing']['median_us']):>9.2f}"
          f" {med(lambda r: r['latency']['ping_same_node']['median_us']):>8.2f}"
          f" {med(lambda r: r['model']['transactions_per_second']):>11.0f}"
          "   runs: " + ", ".join("%.0f" % r["transactions_per_second"] for r in runs))
print(f"JSON: {out}/txn-*-{stamp}-*.json")
PY
