#!/usr/bin/env python3
"""TPC-C over the lock manager: a sweep over warehouses, transaction agents and
both isolation levels (make bench-tpcc).

    .venv/bin/python bench/tpcc_sweep.py [--warehouses 1 2 4] [--agents 1 2 3]
        [--isolation serializable read-committed] [--repeat 3] [--duration 5] [--hpcdb build/hpcdb]

Every configuration runs `hpcdb txn --workload tpcc` with one lock agent and N
transaction agents (N + 1 ranks, oversubscribed beyond the cores), REPEAT times,
the configurations interleaved round by round so that each sees the same
machine. Prints the medians as a table and writes bench/results/tpcc.csv and
bench/results/tpcc.png (throughput against transaction agents, one line per
warehouse count, one panel per isolation level).
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
COLUMNS = ["isolation", "warehouses", "txn_agents", "runs", "tx_per_s", "new_orders_per_min", "abort_pct",
           "locks_per_tx", "long_locks_per_tx", "agents_per_tx", "two_pc_pct", "locking_pct", "p99_new_order_ms"]


def run(args, warehouses, agents, isolation):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(agents + 1), args.hpcdb, "txn",
                   "--workload", "tpcc", "--warehouses", str(warehouses), "--isolation", isolation,
                   "--duration", str(args.duration), "--json", out.name]
        done = subprocess.run(command, env=ENV, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"tpcc_sweep.py: {' '.join(command)} failed:\n{done.stderr[-3000:]}")
        return json.load(open(out.name))


def summary(runs):
    med = lambda f: statistics.median(f(r) for r in runs)
    return {
        "runs": len(runs),
        "tx_per_s": med(lambda r: r["transactions_per_second"]),
        "new_orders_per_min": med(lambda r: r["new_orders_per_minute"]),
        "abort_pct": 100 * med(lambda r: r["abort_rate"]),
        "locks_per_tx": med(lambda r: r["locks_per_committed_txn"]),
        "long_locks_per_tx": med(lambda r: r["locks_per_committed_txn"] - r["short_locks_per_committed_txn"]),
        "agents_per_tx": med(lambda r: r["lock_agents_per_committed_txn"]),
        "two_pc_pct": 100 * med(lambda r: r["two_phase_commit_share"]),
        "locking_pct": 100 * med(lambda r: r["time_split"]["locking"]),
        "p99_new_order_ms": med(lambda r: r["types"]["new-order"]["latency"]["p99_us"] / 1000),
    }


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    isolations = sorted({r["isolation"] for r in rows}, reverse=True)
    fig, axes = plt.subplots(1, len(isolations), figsize=(5.5 * len(isolations), 4), sharey=True, squeeze=False)
    for ax, isolation in zip(axes[0], isolations):
        for w in sorted({r["warehouses"] for r in rows}):
            points = sorted((r["txn_agents"], r["tx_per_s"]) for r in rows if r["isolation"] == isolation and r["warehouses"] == w)
            ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=f"{w} warehouse(s)")
        ax.set_title(f"TPC-C, {isolation}, 1 lock agent")
        ax.set_xlabel("transaction agents")
        ax.set_xticks(sorted({r["txn_agents"] for r in rows}))
        ax.grid(alpha=0.3)
        ax.legend()
    axes[0][0].set_ylabel("committed transactions/s (median)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--warehouses", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--agents", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--isolation", nargs="+", default=["serializable", "read-committed"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--duration", type=float, default=5)
    parser.add_argument("--hpcdb", default="build/hpcdb")
    parser.add_argument("--out", default="bench/results")
    args = parser.parse_args()
    configs = [(i, w, a) for i in args.isolation for w in args.warehouses for a in args.agents]
    runs = {c: [] for c in configs}
    for round_ in range(args.repeat):
        for c in configs:
            runs[c].append(run(args, c[1], c[2], c[0]))
            print(f"round {round_ + 1}/{args.repeat}: {c[0]}, {c[1]} warehouse(s), {c[2]} agent(s): "
                  f"{runs[c][-1]['transactions_per_second']:.0f} tx/s", file=sys.stderr)
    rows = [dict(isolation=i, warehouses=w, txn_agents=a, **summary(runs[(i, w, a)])) for (i, w, a) in configs]
    print(f"{'isolation':<15}{'wh':>3}{'agents':>7}{'tx/s':>9}{'NO/min':>10}{'abort%':>8}{'locks':>7}{'long':>7}"
          f"{'LAs/tx':>7}{'2PC%':>6}{'lock%':>7}{'NO p99 ms':>10}   (medians of {args.repeat} runs of {args.duration:g} s)")
    for r in rows:
        print(f"{r['isolation']:<15}{r['warehouses']:>3}{r['txn_agents']:>7}{r['tx_per_s']:>9.0f}"
              f"{r['new_orders_per_min']:>10.0f}{r['abort_pct']:>8.2f}{r['locks_per_tx']:>7.1f}{r['long_locks_per_tx']:>7.1f}"
              f"{r['agents_per_tx']:>7.2f}{r['two_pc_pct']:>6.2f}{r['locking_pct']:>7.1f}{r['p99_new_order_ms']:>10.2f}")
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "tpcc.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    plot(rows, os.path.join(args.out, "tpcc.png"))
    print(f"CSV and plot: {args.out}/tpcc.csv, {args.out}/tpcc.png")


if __name__ == "__main__":
    main()
