#!/usr/bin/env python3
"""The shuffle designs side by side: on one node, and on emulated hosts at 1 and 10 Gbit/s.

    .venv/bin/python bench/shuffle.py [--repeat 5] [--quick] [--layouts node,1gbit,10gbit]

Each layout is one `hpcdb shuffle --transport all --repeat N --json` run, so
the designs are interleaved within every repetition and compared in the same
minutes; each design is reported by its median run, next to the shuffle
model calibrated on the same layout just before (`hpcdb calibrate
--concurrent`; --no-calibrate skips it). On emulated hosts
(scripts/emulated_cluster.sh, root only: one network namespace per host, both
directions of each host's link shaped with tc) the bytes every rank sent to
other hosts per second are also given as a share of the shaped link rate.
Results go to bench/results/shuffle.csv and shuffle.png.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
HERE = os.path.dirname(os.path.abspath(__file__))
LINK_BYTES_PER_SECOND = {"1gbit": 1e9 / 8, "10gbit": 10e9 / 8}


def launch(args, layout, hosts, program):
    """Runs `program` (hpcdb and its arguments) on the layout; prints and returns its standard output."""
    if layout == "node":
        command = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(args.ranks), *program]
    else:
        cluster = os.path.join(HERE, "..", "scripts", "emulated_cluster.sh")
        command = [cluster, "--hosts", str(hosts), "--rate", layout, "--", *program]
    print(f"{layout}: {' '.join(command)}", flush=True)
    done = subprocess.run(command, env=ENV, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"shuffle.py: {' '.join(command)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    print(done.stdout, flush=True)
    return done.stdout


def run_shuffle(args, layout, tuples, hosts, calibration):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        shuffle = [args.hpcdb, "shuffle", "--tuples", tuples, "--repeat", str(args.repeat), "--json", out.name]
        if calibration:
            shuffle += ["--calibration", calibration]
        launch(args, layout, hosts, shuffle)
        return json.load(open(out.name))


def calibrate(args, layout, hosts):
    """The model's rates on this layout, measured under load a moment before the shuffle."""
    os.makedirs(args.out, exist_ok=True)
    path = os.path.abspath(os.path.join(args.out, f"calibration-shuffle-{layout}.json"))
    launch(args, layout, hosts, [args.hpcdb, "calibrate", "--concurrent", "--output", path])
    return path


def rows_for(layout, document):
    rows = []
    for entry in document["summary"]:
        design = entry["design"]
        rates = [r["rows_per_second"] for r in document["runs"] if r["design"] == design]
        row = {"layout": layout, "design": design, "ranks": document["ranks"], "nodes": document["nodes"],
               "rows": document["rows"], "median_rows_per_second": entry["rows_per_second"],
               "min_rows_per_second": min(rates), "max_rows_per_second": max(rates),
               "vs_alltoallv": entry["vs_alltoallv"],
               "sent_bytes_per_second_per_rank": entry["bytes_sent_per_second_per_rank"]["mean"],
               "off_node_bytes_per_second_per_rank": entry["off_node_bytes_sent_per_second_per_rank"]["mean"],
               "min_off_node_bytes_per_second_per_rank": entry["off_node_bytes_sent_per_second_per_rank"]["min"],
               "messages_per_second_per_rank": entry["messages_per_second_per_rank"]["mean"],
               "registered_bytes_per_rank": entry["registered_bytes_per_rank"],
               "endpoints_per_rank": entry["endpoints_per_rank"]}
        if "model" in entry:
            row["model_seconds"] = entry["model"]["seconds"]
            row["measured_over_model"] = entry["model"]["measured_over_model"]
        if layout in LINK_BYTES_PER_SECOND:
            row["share_of_link"] = row["min_off_node_bytes_per_second_per_rank"] / LINK_BYTES_PER_SECOND[layout]
        rows.append(row)
    return rows


def save(args, rows):
    os.makedirs(args.out, exist_ok=True)
    keys = []
    for row in rows:
        keys += [k for k in row if k not in keys]
    path = os.path.join(args.out, "shuffle.csv")
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=keys)
        writer.writeheader()
        writer.writerows(rows)
    print(f"{'layout':<8} {'design':<14} {'M rows/s':>9} {'vs a2av':>8} {'off-node MB/s/rank (slowest)':>29} {'of link':>8}"
          f" {'model s':>8} {'meas/model':>10}")
    for r in rows:
        share = f"{100 * r['share_of_link']:.0f}%" if "share_of_link" in r else "-"
        off = f"{r['min_off_node_bytes_per_second_per_rank'] / 1e6:.1f}" if r["nodes"] > 1 else "-"
        model = f"{r['model_seconds']:.3f}" if "model_seconds" in r else "-"
        ratio = f"{r['measured_over_model']:.2f}x" if "measured_over_model" in r else "-"
        print(f"{r['layout']:<8} {r['design']:<14} {r['median_rows_per_second'] / 1e6:9.2f} {r['vs_alltoallv']:7.2f}x {off:>29} {share:>8}"
              f" {model:>8} {ratio:>10}")
    print(f"written {path}")


def plot(args, rows, layouts):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(layouts), figsize=(5 * len(layouts), 4.2), squeeze=False)
    for ax, layout in zip(axes[0], layouts):
        pts = [r for r in rows if r["layout"] == layout]
        xs = np.arange(len(pts))
        med = np.array([r["median_rows_per_second"] for r in pts]) / 1e6
        low = med - np.array([r["min_rows_per_second"] for r in pts]) / 1e6
        high = np.array([r["max_rows_per_second"] for r in pts]) / 1e6 - med
        ax.bar(xs, med, yerr=[low, high], capsize=3, color=["tab:gray"] + ["tab:blue"] * (len(pts) - 1))
        ax.set_xticks(xs, [r["design"] for r in pts], rotation=30, ha="right")
        title = f"{pts[0]['ranks']} ranks, one node" if layout == "node" else f"{pts[0]['nodes']} emulated hosts, {layout}"
        ax.set_title(title)
        ax.set_ylabel("M rows/s (median; min-max of runs)")
        ax.set_ylim(0, 1.25 * max(med + high))
        for x, r in zip(xs, pts):
            label = f"{r['vs_alltoallv']:.2f}x"
            if "share_of_link" in r:
                label += f"\n{100 * r['share_of_link']:.0f}% link"
            ax.annotate(label, (x, med[x]), ha="center", va="bottom", fontsize=7)
    fig.tight_layout()
    path = os.path.join(args.out, "shuffle.png")
    fig.savefig(path, dpi=120)
    print(f"written {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="an eighth of the sizes, for a fast look")
    parser.add_argument("--layouts", default="node,1gbit,10gbit", help="comma-separated: node, 1gbit, 10gbit")
    parser.add_argument("--ranks", type=int, default=2, help="ranks on one node")
    parser.add_argument("--hosts", type=int, default=4, help="emulated hosts (one rank each)")
    parser.add_argument("--hpcdb", default="build/hpcdb")
    parser.add_argument("--out", default="bench/results")
    parser.add_argument("--no-calibrate", dest="calibrate", action="store_false",
                        help="no calibration, no model next to the measurements")
    args = parser.parse_args()
    layouts = args.layouts.split(",")
    for layout in layouts:
        if layout not in ("node", *LINK_BYTES_PER_SECOND):
            sys.exit(f"shuffle.py: unknown layout '{layout}' (use node, 1gbit, 10gbit)")
    if any(layout != "node" for layout in layouts) and os.geteuid() != 0:
        sys.exit("shuffle.py: emulated hosts need root (network namespaces); use --layouts node")
    rows = []
    for layout in layouts:
        tuples = "64M" if layout == "node" else "32M"
        if args.quick:
            tuples = {"64M": "8M", "32M": "4M"}[tuples]
        calibration = calibrate(args, layout, args.hosts) if args.calibrate else None
        rows += rows_for(layout, run_shuffle(args, layout, tuples, args.hosts, calibration))
    save(args, rows)
    plot(args, rows, layouts)


if __name__ == "__main__":
    main()
