"""What the Python package costs over the command line: TPC-H lineitem ⋈
orders on l_orderkey = o_orderkey (the nine columns of bench/tables.py), 2
ranks, the same join on the same data in memory, both ways, interleaved.

    .venv/bin/python bench/python_overhead.py [--scale 1] [--repeat 3] [--hpcdb build/hpcdb]

Command line: `hpcdb join --left ... --right ... --columns ...`; its time is
the run's time less its read phase (the join from tables in memory).
Python: `hpcdb.read_parquet` of the same columns, then the time of the
`hpcdb.join(...)` call around it (the slowest rank), the tables handed in
and the result handed out through the Arrow C stream interface. Also both
from the files on: the command line's whole run, Python's reads and join.
Each round prints both runs' phases (the slowest rank's seconds). Medians
over --repeat rounds; the ratios are Python's medians over the command
line's.
Run it on a quiet machine.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tables import COLUMNS, LEFT_COLUMNS, MPI_ENV, ROOT, generate  # noqa: E402

PYTHON_JOB = """
import json, sys, time
import hpcdb
hpcdb.rank()  # MPI started
read_start = time.perf_counter()
lineitem = hpcdb.read_parquet(sys.argv[1], columns={left})
orders = hpcdb.read_parquet(sys.argv[2], columns=["o_orderkey"] + {right})
start = time.perf_counter()
rows, report = hpcdb.join(lineitem, orders, left_on="l_orderkey", right_on="o_orderkey", columns={columns}, stats=True)
end = time.perf_counter()
everyone = hpcdb.gather(__import__("pyarrow").table({{"s": [end - start], "all": [end - read_start]}}))
if hpcdb.rank() == 0:
    print(json.dumps({{"seconds": max(everyone["s"].to_pylist()), "with_read": max(everyone["all"].to_pylist()),
                      "rows": report["result_rows"], "phases": {{p["name"]: p["seconds"] for p in report["phases"]}}}}))
"""


def run_cli(args, lineitem, orders):
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        subprocess.run(["mpirun", "--oversubscribe", "--bind-to", "none", "-np", "2", args.hpcdb, "join", "--left",
                        lineitem, "--right", orders, "--on", "l_orderkey=o_orderkey", "--columns", ",".join(COLUMNS),
                        "--json", report.name], check=True, env=MPI_ENV, stdout=subprocess.DEVNULL)
        doc = json.load(open(report.name))
    read = doc["phases"].get("read", {}).get("max", 0.0)
    phases = {name: p["max"] for name, p in doc["phases"].items() if name != "read"}
    return doc["seconds"] - read, doc["seconds"], doc["result_rows"], phases


def run_python(lineitem, orders):
    job = PYTHON_JOB.format(left=LEFT_COLUMNS, right=[c for c in COLUMNS if c.startswith("o_")], columns=COLUMNS)
    done = subprocess.run(["mpirun", "--oversubscribe", "--bind-to", "none", "-np", "2", sys.executable, "-c", job,
                           lineitem, orders], check=True, env=MPI_ENV, capture_output=True, text=True)
    doc = json.loads(done.stdout.strip().splitlines()[-1])
    return doc["seconds"], doc["with_read"], doc["rows"], doc["phases"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--hpcdb", default=os.path.join(ROOT, "build", "hpcdb"))
    args = parser.parse_args()
    lineitem, orders = generate(args.scale, os.path.join(ROOT, "bench", "data", f"tpch-sf{args.scale}"))
    cli, python, cli_all, python_all = [], [], [], []
    for round_ in range(args.repeat):
        cli_seconds, cli_with_read, cli_rows, cli_phases = run_cli(args, lineitem, orders)
        py_seconds, py_with_read, py_rows, py_phases = run_python(lineitem, orders)
        if cli_rows != py_rows:
            sys.exit(f"the command line's {cli_rows} result rows differ from Python's {py_rows}")
        cli.append(cli_seconds)
        python.append(py_seconds)
        cli_all.append(cli_with_read)
        python_all.append(py_with_read)
        print(f"round {round_ + 1}: join in memory: command line {cli_seconds:.3f} s, Python {py_seconds:.3f} s; "
              f"read and join: {cli_with_read:.3f} s, {py_with_read:.3f} s ({py_rows} rows)", flush=True)
        for name in cli_phases:
            print(f"  {name:12s} command line {cli_phases[name]:.3f} s, Python {py_phases.get(name, float('nan')):.3f} s")
    for what, a, b in (("join in memory", cli, python), ("read and join", cli_all, python_all)):
        print(f"median, {what}: command line {statistics.median(a):.3f} s, Python {statistics.median(b):.3f} s, "
              f"Python / command line = {statistics.median(b) / statistics.median(a):.3f}")


if __name__ == "__main__":
    main()
