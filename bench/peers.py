#!/usr/bin/env python3
"""Peers side by side: the same join on identical data (written by `hpcdb
generate`) through hpcdb's radix and sort-merge joins, DuckDB and Polars.
Every system's result count and checksum (sum of rid_r * 0x9E3779B97F4A7C15
+ rid_s mod 2^64) must agree. Timed: hpcdb's join (count and checksum),
the peers' join with a count (their checksum is computed apart, untimed).
Prints a table, writes CSV and a PNG plot.

    .venv/bin/python bench/peers.py --inner 16M --outer 16M --repeat 3
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

C = 0x9E3779B97F4A7C15
MASK = (1 << 64) - 1
TUPLE = np.dtype([("key", "<u8"), ("rid", "<u8")])


def count(text):
    units = {"K": 10**3, "M": 10**6, "G": 10**9, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30}
    for suffix in sorted(units, key=len, reverse=True):
        if text.endswith(suffix):
            return int(text[: -len(suffix)]) * units[suffix]
    return int(text)


def mpirun(args, ranks):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    command = ["mpirun", "--oversubscribe", "-np", str(ranks)] + args
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"peers.py: {' '.join(command)} failed:\n{done.stderr}")
    return done.stdout


def checksum_of(rid_r, rid_s):
    with np.errstate(over="ignore"):
        return int((rid_r.astype(np.uint64) * np.uint64(C) + rid_s.astype(np.uint64)).sum(dtype=np.uint64))


def run_hpcdb(args, algorithm, r_path, s_path, work):
    out = os.path.join(work, f"{algorithm}.json")
    mpirun([args.hpcdb, "join", "--algorithm", algorithm, "--input-r", r_path, "--input-s", s_path,
            "--repeat", str(args.repeat), "--json", out], args.ranks)
    runs = json.load(open(out))
    runs = runs if isinstance(runs, list) else [runs]
    return [r["seconds"] for r in runs], runs[0]["matches"], runs[0]["checksum"]


def run_duckdb(args, r, s):
    """Times the join with a count (what the join itself costs); the
    checksum, for verification, comes from a separate query."""
    import duckdb
    con = duckdb.connect()
    con.execute(f"PRAGMA threads={os.cpu_count()}")
    con.register("r_view", {"key": r["key"], "rid": r["rid"]})
    con.register("s_view", {"key": s["key"], "rid": s["rid"]})
    con.execute("CREATE TABLE r AS SELECT * FROM r_view")
    con.execute("CREATE TABLE s AS SELECT * FROM s_view")
    seconds = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        matches = con.execute("SELECT count(*) FROM r JOIN s ON r.key = s.key").fetchone()[0]
        seconds.append(time.perf_counter() - start)
    total = con.execute(f"SELECT sum((r.rid::HUGEINT * {C} + s.rid) % {1 << 64}) "
                        "FROM r JOIN s ON r.key = s.key").fetchone()[0]
    return seconds, int(matches), int(total or 0) & MASK


def run_polars(args, r, s):
    """Times the join with a count; the checksum comes from a separate join."""
    import polars as pl
    rf = pl.DataFrame({"key": r["key"], "rid_r": r["rid"]})
    sf = pl.DataFrame({"key": s["key"], "rid_s": s["rid"]})
    seconds, matches = [], 0
    for _ in range(args.repeat):
        start = time.perf_counter()
        matches = rf.lazy().join(sf.lazy(), on="key", how="inner").select(pl.len()).collect().item()
        seconds.append(time.perf_counter() - start)
    joined = rf.join(sf, on="key", how="inner")
    return seconds, int(matches), checksum_of(joined["rid_r"].to_numpy(), joined["rid_s"].to_numpy())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inner", default="16M")
    parser.add_argument("--outer", default="16M")
    parser.add_argument("--zipf", default="0")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--hpcdb", default="build/hpcdb")
    parser.add_argument("--out", default="bench/results")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    tuples = count(args.inner) + count(args.outer)

    with tempfile.TemporaryDirectory() as work:
        r_path, s_path = os.path.join(work, "r.bin"), os.path.join(work, "s.bin")
        mpirun([args.hpcdb, "generate", "--inner", args.inner, "--outer", args.outer, "--zipf", args.zipf,
                "--output-r", r_path, "--output-s", s_path], args.ranks)
        rows = []
        for name, run in [("hpcdb radix", lambda: run_hpcdb(args, "radix", r_path, s_path, work)),
                          ("hpcdb sort-merge", lambda: run_hpcdb(args, "sort-merge", r_path, s_path, work))]:
            rows.append((name, *run()))
        r = np.fromfile(r_path, dtype=TUPLE)
        s = np.fromfile(s_path, dtype=TUPLE)
        rows.append(("DuckDB", *run_duckdb(args, r, s)))
        rows.append(("Polars", *run_polars(args, r, s)))

    reference = rows[0][2:]
    print(f"{tuples:,} input tuples, {args.ranks} ranks for hpcdb, {os.cpu_count()} cores, median of {args.repeat}")
    print(f"{'system':<18} {'median s':>10} {'M tuples/s':>11} {'matches':>12} {'checksum':>20} agrees")
    table = []
    all_agree = True
    for name, seconds, matches, checksum in rows:
        median = statistics.median(seconds)
        agrees = (matches, checksum) == reference
        all_agree = all_agree and agrees
        print(f"{name:<18} {median:>10.4f} {tuples / median / 1e6:>11.1f} {matches:>12,} {checksum:>#20x} {'yes' if agrees else 'NO'}")
        table.append({"system": name, "median_seconds": median, "tuples_per_second": tuples / median,
                      "matches": matches, "checksum": checksum, "agrees": agrees,
                      "seconds": " ".join(f"{x:.4f}" for x in seconds)})
    with open(os.path.join(args.out, "peers.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows(table)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.bar([t["system"] for t in table], [t["tuples_per_second"] / 1e6 for t in table], color="#4477aa")
    ax.set_ylabel("M input tuples/s (median)")
    ax.set_title(f"{args.inner} ⋈ {args.outer}, zipf {args.zipf}")
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "peers.png"), dpi=120)
    print(f"written {args.out}/peers.csv and {args.out}/peers.png")
    return 0 if all_agree else 1


if __name__ == "__main__":
    sys.exit(main())
