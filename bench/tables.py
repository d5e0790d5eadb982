"""TPC-H lineitem ⋈ orders on l_orderkey = o_orderkey, nine columns, through
hpcdb (2 ranks) and its peers on the same two cores, Parquet in and Parquet
out end to end, and tables in memory (hpcdb: a run without --output, whose
result is kept, less its read phase); checks that every result equals
DuckDB's (row count and a checksum over every column; the row count for the
result kept in memory) and reports each system's time, hpcdb's phases and
peak memory per rank.

    .venv/bin/python bench/tables.py [--scale 10] [--repeat 3] [--spark] [--hpcdb build/hpcdb]

The data comes from tpchgen-cli (the TPC-H generator's rules) into
bench/data/tpch-sfN/ once. Results: bench/results/tables.csv and a table on
standard output. Run it on a quiet machine: timings taken while other work
runs say little.
"""
import argparse
import csv
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEFT_COLUMNS = ["l_orderkey", "l_partkey", "l_quantity", "l_extendedprice", "l_shipdate"]
RIGHT_COLUMNS = ["o_custkey", "o_orderdate", "o_totalprice", "o_orderpriority"]
COLUMNS = LEFT_COLUMNS + RIGHT_COLUMNS
SELECT = ", ".join(COLUMNS)
MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def generate(scale, directory):
    lineitem, orders = os.path.join(directory, "lineitem.parquet"), os.path.join(directory, "orders.parquet")
    if not (os.path.exists(lineitem) and os.path.exists(orders)):
        os.makedirs(directory, exist_ok=True)
        print(f"generating TPC-H scale factor {scale} into {directory} (tpchgen-cli)", flush=True)
        subprocess.run([os.path.join(ROOT, ".venv/bin/tpchgen-cli"), "parquet", "-s", str(scale), "--tables",
                        "lineitem,orders", "--output-dir", directory], check=True)
    return lineitem, orders


def child_peak_kib():
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def settle():
    """Flushes the files earlier runs wrote, so that no run's time includes
    the kernel writing back another's output."""
    os.sync()


def run_child(code, env=None):
    """Runs Python code in a fresh interpreter; returns (seconds it printed, its peak RSS in bytes)."""
    settle()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env or os.environ)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    lines = done.stdout.strip().splitlines()
    return json.loads(lines[-1])


DUCKDB_E2E = """
import duckdb, json, resource, time
con = duckdb.connect(config={{'threads': 2}})
start = time.perf_counter()
con.execute(\"\"\"COPY (SELECT {select} FROM read_parquet('{lineitem}') JOIN read_parquet('{orders}')
              ON l_orderkey = o_orderkey) TO '{out}' (FORMAT parquet)\"\"\")
print(json.dumps({{'seconds': time.perf_counter() - start, 'peak': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}}))
"""

DUCKDB_MEMORY = """
import duckdb, json, resource, time
con = duckdb.connect(config={{'threads': 2}})
con.execute("CREATE TABLE l AS SELECT {left_sql} FROM read_parquet('{lineitem}')")
con.execute("CREATE TABLE o AS SELECT o_orderkey, {right_sql} FROM read_parquet('{orders}')")
start = time.perf_counter()
con.execute("CREATE TABLE r AS SELECT {select} FROM l JOIN o ON l_orderkey = o_orderkey")
seconds = time.perf_counter() - start
print(json.dumps({{'seconds': seconds, 'peak': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}}))
"""

POLARS_E2E = """
import json, os, resource, time
import polars as pl
start = time.perf_counter()
l = pl.scan_parquet('{lineitem}').select({left})
o = pl.scan_parquet('{orders}').select(['o_orderkey'] + {right})
l.join(o, left_on='l_orderkey', right_on='o_orderkey').select({columns}).sink_parquet('{out}')
print(json.dumps({{'seconds': time.perf_counter() - start, 'peak': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}}))
"""

SPARK_E2E = """
import json, resource, time
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master('local[2]').config('spark.sql.shuffle.partitions', '2')
         .config('spark.driver.memory', '12g').config('spark.sql.adaptive.enabled', 'true')
         .config('spark.ui.enabled', 'false').getOrCreate())
spark.sparkContext.setLogLevel('ERROR')
start = time.perf_counter()
l = spark.read.parquet('{lineitem}').select(*{left})
o = spark.read.parquet('{orders}').select('o_orderkey', *{right})
l.join(o, l.l_orderkey == o.o_orderkey).select(*{columns}).write.mode('overwrite').parquet('{out}')
print(json.dumps({{'seconds': time.perf_counter() - start, 'peak': 0}}))
"""


def checksum(path):
    """Row count and a checksum over every column of a Parquet file or directory (DuckDB)."""
    import duckdb
    source = f"read_parquet('{path}/*.parquet')" if os.path.isdir(path) else f"read_parquet('{path}')"
    cols = ", ".join(COLUMNS)
    return duckdb.connect().execute(f"SELECT count(*), sum(hash({cols})::HUGEINT) FROM {source}").fetchone()


def run_hpcdb(args, lineitem, orders, out, ranks, keep_result=False):
    """Parquet in -> Parquet out into `out`; with keep_result, no output: the
    result stays in memory, and in_memory is the run less its read phase."""
    json_path = out + ".json"
    command = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(ranks), args.hpcdb, "join",
               "--left", lineitem, "--right", orders, "--on", "l_orderkey=o_orderkey", "--columns", ",".join(COLUMNS),
               "--progress", "off", "--json", json_path]
    if not keep_result:
        command += ["--output", out, "--overwrite"]
    settle()
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=MPI_ENV)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    with open(json_path) as f:
        report = json.load(f)
    phases = {name: p["max"] for name, p in report["phases"].items()}
    in_memory = sum(v for k, v in phases.items() if k not in ("read", "write"))
    return {"seconds": seconds, "reported": report["seconds"], "in_memory": in_memory, "phases": phases,
            "peak": report["memory"]["peak_bytes_per_rank"], "rows": report["result_rows"], "summary": done.stdout}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--hpcdb", default=os.path.join(ROOT, "build/hpcdb"))
    parser.add_argument("--data", default=None, help="directory of lineitem.parquet and orders.parquet")
    parser.add_argument("--spark", action="store_true", help="also Spark local[2] (pyspark, installed into .venv on demand)")
    parser.add_argument("--no-polars", action="store_true")
    args = parser.parse_args()
    scale_name = f"{args.scale:g}"
    data = args.data or os.path.join(ROOT, "bench", "data", f"tpch-sf{scale_name}")
    lineitem, orders = generate(args.scale, data)
    if args.spark:
        subprocess.run([os.path.join(ROOT, ".venv/bin/pip"), "install", "-q", "pyspark"], check=True)
    work = tempfile.mkdtemp(prefix="hpcdb-tables-", dir=os.path.join(ROOT, "bench"))
    fmt = dict(select=SELECT, lineitem=lineitem, orders=orders, left=LEFT_COLUMNS, right=RIGHT_COLUMNS, columns=COLUMNS,
               left_sql=", ".join(LEFT_COLUMNS), right_sql=", ".join(RIGHT_COLUMNS))
    runs = {name: [] for name in ("hpcdb", "duckdb", "polars", "spark", "hpcdb_memory", "duckdb_memory")}
    checks = {}
    try:
        reference = None
        for repetition in range(args.repeat):
            out = os.path.join(work, "duckdb.parquet")
            runs["duckdb"].append(run_child(DUCKDB_E2E.format(out=out, **fmt)))
            reference = reference or checksum(out)
            checks["duckdb"] = reference
            out = os.path.join(work, "hpcdb")
            r = run_hpcdb(args, lineitem, orders, out, args.ranks)
            runs["hpcdb"].append(r)
            # A written result streams (fetched and written a slice at a time):
            # the in-memory figure comes from a run that keeps its result.
            r = run_hpcdb(args, lineitem, orders, out, args.ranks, keep_result=True)
            runs["hpcdb_memory"].append({"seconds": r["in_memory"], "peak": r["peak"], "phases": r["phases"],
                                         "rows": r["rows"]})
            checks["hpcdb"] = checksum(out)
            if not args.no_polars:
                out = os.path.join(work, "polars.parquet")
                env = dict(os.environ, POLARS_MAX_THREADS="2")
                runs["polars"].append(run_child(POLARS_E2E.format(out=out, **fmt), env))
                checks["polars"] = checksum(out)
            if args.spark:
                out = os.path.join(work, "spark")
                runs["spark"].append(run_child(SPARK_E2E.format(out=out, **fmt)))
                checks["spark"] = checksum(out)
            runs["duckdb_memory"].append(run_child(DUCKDB_MEMORY.format(**fmt)))
            print(f"repetition {repetition + 1}: " + ", ".join(
                f"{k} {v[-1]['seconds']:.2f} s" for k, v in runs.items() if len(v) > repetition), flush=True)
        report(args, runs, checks, reference)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(args, runs, checks, reference):
    median = {k: statistics.median(x["seconds"] for x in v) for k, v in runs.items() if v}
    print(f"\nlineitem ⋈ orders, TPC-H SF {args.scale:g}, {args.ranks} ranks, medians of {args.repeat}")
    print(hpcdb_phases(runs["hpcdb"]))
    print(hpcdb_phases(runs["hpcdb_memory"]).replace("phases", "phases with the result kept in memory"))
    rows = []
    for name, label in [("hpcdb", "hpcdb, Parquet in -> out"), ("duckdb", "DuckDB COPY ... TO parquet (2 threads)"),
                        ("polars", "Polars sink_parquet (2 threads)"), ("spark", "Spark local[2]"),
                        ("hpcdb_memory", "hpcdb, in memory (all phases but read)"),
                        ("duckdb_memory", "DuckDB CREATE TABLE AS (2 threads)")]:
        if name not in median:
            continue
        base = median["duckdb_memory"] if name.endswith("memory") else median["duckdb"]
        peak = max(x["peak"] for x in runs[name]) / 2**30
        check = checks.get(name.replace("_memory", ""), None)
        if name == "hpcdb_memory":  # no file to checksum: the row count
            rows_seen = {x["rows"] for x in runs[name]}
            equal = "rows equal" if rows_seen == {reference[0]} else f"ROWS DIFFER {sorted(rows_seen)} vs {reference[0]}"
        else:
            equal = "" if name.endswith("memory") else ("equal" if check == reference else f"DIFFERS {check} vs {reference}")
        rows.append([label, f"{median[name]:.2f}", f"{base / median[name]:.2f}x", f"{peak:.2f}", equal])
    widths = [max(len(r[i]) for r in rows + [["system", "s", "vs DuckDB", "peak GiB", "result"]]) for i in range(5)]
    for r in [["system", "s", "vs DuckDB", "peak GiB", "result"]] + rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    print(f"result: {reference[0]} rows, checksum {reference[1]}")
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "bench", "results", "tables.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["system", "median_seconds", "speedup_vs_duckdb", "peak_gib", "result"])
        writer.writerows(rows)
    failed = any(r[4].startswith("DIFFERS") for r in rows)
    sys.exit(1 if failed else 0)


def hpcdb_phases(runs):
    if not runs:
        return ""
    names = list(runs[0]["phases"].keys())
    parts = [f"{n} {statistics.median(r['phases'][n] for r in runs):.2f}" for n in names]
    return "hpcdb phases (max over ranks, medians, s): " + ", ".join(parts)


if __name__ == "__main__":
    main()
