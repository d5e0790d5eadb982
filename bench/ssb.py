#!/usr/bin/env python3
"""The Star Schema Benchmark on hpcdb's decoupled storage engine, next to DuckDB.

    .venv/bin/python bench/ssb.py [--scale 10] [--duration 60] [--repeat 3]
        [--clients 1,4,16,64,256] [--skip-sweep] [--skip-mixed] [--skip-duckdb]

Four parts, all at one scale factor (default 10) and seed:

  sweep     hpcdb ssb with 1..256 closed-loop clients of random SSB queries,
            local (one rank: storage and query engine in one process) and
            decoupled (one storage rank + one query-engine rank);
  duckdb    the comparison: DuckDB (in this process, its default threads) on
            the CSV files of 'hpcdb generate --ssb' for the same scale and
            seed, running the same query stream (each client's queries in the
            order hpcdb's client of that number draws them: 'hpcdb ssb
            --stream-sql') from 64 concurrent connections, closed loop, for the
            same duration; interleaved with hpcdb decoupled at 64 clients,
            --repeat times, medians compared;
  mixed     64 SSB clients plus point-query clients (lookups by customer key)
            with --priorities on and off, interleaved: point-query latency
            under scan load;
  report    tables on standard output, bench/results/ssb.json and ssb.csv,
            plots ssb_throughput.png, ssb_latency.png, ssb_priorities.png
            (--name for another prefix than ssb).

Queries per hour count the queries completed within each run's measured
window (--duration less --warmup); latencies are per flight (p50/p90/p99).
Memory: scale factor 10 is about 2.8 GB in hpcdb's storage rank and a few GB
in DuckDB (both alive at once); its CSV files take about 6 GB in --data.
"""
import argparse
import csv
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = ["lineorder", "customer", "supplier", "part", "date"]


def load_average():
    return os.getloadavg()[0]


def hpcdb_ssb(args, ranks, extra, label):
    """One hpcdb ssb run; returns its JSON document (with the load average at its start)."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(ranks), args.hpcdb, "ssb",
                   "--scale", str(args.scale), "--seed", str(args.seed), "--duration", str(args.duration),
                   "--warmup", str(args.warmup), "--json", out.name, *extra]
        load = load_average()
        print(f"[{label}] load {load:.1f}: {' '.join(command)}", flush=True)
        done = subprocess.run(command, env=ENV, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"ssb.py: {' '.join(command)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
        print(done.stdout, flush=True)
        document = json.load(open(out.name))
        document["load_average"] = load
        return document


def summary(document):
    flights = {str(f["flight"]): f for f in document["flights"]}
    points = document["point_queries"]
    return {"queries_per_hour": document["throughput"]["queries_per_hour"],
            "completed": document["throughput"]["completed"],
            "p50_s": flights["all"]["p50_s"], "p90_s": flights["all"]["p90_s"], "p99_s": flights["all"]["p99_s"],
            "flights": {k: {"p50_s": v["p50_s"], "p90_s": v["p90_s"], "p99_s": v["p99_s"],
                            "queries_per_hour": v["queries_per_hour"]} for k, v in flights.items()},
            "bytes_moved": document["bytes_moved"]["between_ranks"],
            "bytes_saved_by_tuple_free": document["bytes_moved"]["saved_by_tuple_free_results"],
            "saved_share": document["bytes_moved"]["saved_share"],
            "point_queries": points["count"], "point_p50_ms": points["p50_ms"], "point_p90_ms": points["p90_ms"],
            "point_p99_ms": points["p99_ms"], "load_average": document["load_average"]}


# --- DuckDB ------------------------------------------------------------------

def ensure_csv(args):
    """The CSV files of this scale and seed in --data (made once, reused)."""
    directory = os.path.join(args.data, f"sf{args.scale}-seed{args.seed}")
    stamp = os.path.join(directory, "complete")
    if not os.path.exists(stamp):
        os.makedirs(directory, exist_ok=True)
        command = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", "2", args.hpcdb, "generate", "--ssb",
                   "--scale", str(args.scale), "--seed", str(args.seed), "--output-dir", directory]
        print(" ".join(command), flush=True)
        subprocess.run(command, env=ENV, check=True)
        open(stamp, "w").write("ok\n")
    return directory


def load_duckdb(directory):
    """DuckDB over the tables of `directory`: loaded from the CSV files once
    into a database file beside them (ssb.duckdb), which later runs open."""
    import duckdb
    path = os.path.join(directory, "ssb.duckdb")
    if not os.path.exists(path):
        start = time.time()
        partial = path + ".partial"
        if os.path.exists(partial):
            os.remove(partial)
        con = duckdb.connect(partial)
        for t in TABLES:
            con.execute(f"create table \"{t}\" as select * from read_csv('{directory}/{t}.csv', header=true)")
        con.close()
        os.rename(partial, path)
        print(f"DuckDB {duckdb.__version__}: loaded {directory} into {path} in {time.time() - start:.1f} s", flush=True)
    con = duckdb.connect(path, read_only=True)
    threads = con.execute("select current_setting('threads')").fetchone()[0]
    print(f"DuckDB {duckdb.__version__}: {path} ({threads} threads)", flush=True)
    return con


def query_stream(args, clients):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([args.hpcdb, "ssb", "--scale", str(args.scale), "--seed", str(args.seed), "--clients",
                        str(clients), "--stream-length", str(args.stream_length), "--stream-sql", out.name],
                       env=ENV, check=True, capture_output=True)
        return json.load(open(out.name))["clients"]


def percentile(values, q):
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run_duckdb(args, con, stream):
    """The clients' streams on one connection each, closed loop, for --duration s (--warmup not counted)."""
    start = time.time()
    stop = start + args.duration
    results = queue.Queue()

    def client(index, queries):
        cursor = con.cursor()
        i = 0
        while time.time() < stop:
            q = queries[i % len(queries)]
            i += 1
            began = time.time()
            cursor.execute(q["sql"]).fetchall()
            ended = time.time()
            if start + args.warmup <= ended <= stop:
                results.put((q["flight"], ended - began))

    load = load_average()
    threads = [threading.Thread(target=client, args=(i, s)) for i, s in enumerate(stream)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done = []
    while not results.empty():
        done.append(results.get())
    window = args.duration - args.warmup
    latencies = [d for _, d in done]
    flights = {}
    for f in ["1", "2", "3", "4"]:
        lat = [d for fl, d in done if str(fl) == f]
        flights[f] = {"p50_s": percentile(lat, 0.5), "p90_s": percentile(lat, 0.9), "p99_s": percentile(lat, 0.99),
                      "queries_per_hour": 3600 * len(lat) / window}
    flights["all"] = {"p50_s": percentile(latencies, 0.5), "p90_s": percentile(latencies, 0.9),
                      "p99_s": percentile(latencies, 0.99), "queries_per_hour": 3600 * len(done) / window}
    result = {"queries_per_hour": 3600 * len(done) / window, "completed": len(done),
              "p50_s": flights["all"]["p50_s"], "p90_s": flights["all"]["p90_s"], "p99_s": flights["all"]["p99_s"],
              "flights": flights, "load_average": load}
    print(f"[duckdb] load {load:.1f}: {len(done)} queries in {window:.0f} s = {result['queries_per_hour']:,.0f} "
          f"queries/hour, p50 {result['p50_s']:.3f} s, p99 {result['p99_s']:.3f} s", flush=True)
    return result


# --- the parts -----------------------------------------------------------------

def sweep(args):
    rows = []
    for clients in args.clients:
        for deployment, ranks in (("local", 1), ("decoupled", 2)):
            for r in range(args.sweep_repeat):
                doc = hpcdb_ssb(args, ranks, ["--deployment", deployment, "--clients", str(clients)],
                                f"sweep {deployment} {clients} clients #{r + 1}")
                rows.append({"part": "sweep", "deployment": deployment, "clients": clients, "run": r + 1, **summary(doc)})
    return rows


def comparison(args):
    directory = ensure_csv(args)
    con = load_duckdb(directory)
    # Bring the columns the queries read into DuckDB's buffers before the first timed run.
    con.execute("select sum(lo_custkey), sum(lo_partkey), sum(lo_suppkey), sum(lo_orderdate), sum(lo_quantity), "
                "sum(lo_extendedprice), sum(lo_discount), sum(lo_revenue), sum(lo_supplycost) from lineorder").fetchall()
    stream = query_stream(args, args.compare_clients)
    rows = []
    for r in range(args.repeat):
        doc = hpcdb_ssb(args, 2, ["--deployment", "decoupled", "--clients", str(args.compare_clients)],
                        f"compare hpcdb #{r + 1}")
        rows.append({"part": "compare", "system": "hpcdb", "clients": args.compare_clients, "run": r + 1, **summary(doc)})
        rows.append({"part": "compare", "system": "duckdb", "clients": args.compare_clients, "run": r + 1,
                     **run_duckdb(args, con, stream)})
    con.close()
    return rows


def mixed(args):
    rows = []
    for r in range(args.repeat):
        for priorities in ("on", "off"):
            doc = hpcdb_ssb(args, 2, ["--deployment", "decoupled", "--clients", str(args.compare_clients),
                                      "--lookup-clients", str(args.lookup_clients), "--lookup-think-ms",
                                      str(args.lookup_think_ms), "--priorities", priorities],
                            f"mixed priorities {priorities} #{r + 1}")
            rows.append({"part": "mixed", "priorities": priorities, "clients": args.compare_clients,
                         "lookup_clients": args.lookup_clients, "run": r + 1, **summary(doc)})
    return rows


def median(rows, key, **match):
    values = [r[key] for r in rows if all(r.get(k) == v for k, v in match.items())]
    return statistics.median(values) if values else None


def report(args, rows):
    os.makedirs(args.out, exist_ok=True)
    verdict = {}
    print("\n=== SSB at scale factor", args.scale, "===")
    if any(r["part"] == "sweep" for r in rows):
        print(f"\n{'deployment':>10} {'clients':>8} {'queries/hour':>14} {'p50 s':>8} {'p90 s':>8} {'p99 s':>8} {'moved':>10}")
        for deployment in ("local", "decoupled"):
            for clients in args.clients:
                m = lambda k: median(rows, k, part="sweep", deployment=deployment, clients=clients)
                if m("queries_per_hour") is None:
                    continue
                print(f"{deployment:>10} {clients:>8} {m('queries_per_hour'):>14,.0f} {m('p50_s'):>8.3f} "
                      f"{m('p90_s'):>8.3f} {m('p99_s'):>8.3f} {m('bytes_moved') / 2**30:>8.2f} GiB")
    if any(r["part"] == "compare" for r in rows):
        h = median(rows, "queries_per_hour", part="compare", system="hpcdb")
        d = median(rows, "queries_per_hour", part="compare", system="duckdb")
        print(f"\n{args.compare_clients} clients, medians of {args.repeat} interleaved runs of {args.duration} s:")
        for system in ("hpcdb", "duckdb"):
            runs = [f"{r['queries_per_hour']:,.0f}" for r in rows if r["part"] == "compare" and r["system"] == system]
            print(f"  {system:>7}: {median(rows, 'queries_per_hour', part='compare', system=system):,.0f} queries/hour "
                  f"(runs {', '.join(runs)}), p50 {median(rows, 'p50_s', part='compare', system=system):.3f} s, "
                  f"p99 {median(rows, 'p99_s', part='compare', system=system):.3f} s")
        verdict["hpcdb_over_duckdb"] = h / d if d else None
        print(f"  hpcdb / DuckDB: {verdict['hpcdb_over_duckdb']:.2f}x (target >= 2)")
        saved = median(rows, "bytes_saved_by_tuple_free", part="compare", system="hpcdb")
        share = median(rows, "saved_share", part="compare", system="hpcdb")
        print(f"  bytes not sent thanks to tuple-free results: {saved / 2**30:.2f} GiB per run "
              f"({100 * share:.1f}% of what the general layout would have sent)")
    if any(r["part"] == "mixed" for r in rows):
        on = median(rows, "point_p99_ms", part="mixed", priorities="on")
        off = median(rows, "point_p99_ms", part="mixed", priorities="off")
        print(f"\npoint queries under scan load ({args.lookup_clients} lookup clients, {args.lookup_think_ms} ms think time, "
              f"beside {args.compare_clients} SSB clients):")
        for p in ("on", "off"):
            print(f"  priorities {p:>3}: {median(rows, 'point_queries', part='mixed', priorities=p):,.0f} point queries, "
                  f"p50 {median(rows, 'point_p50_ms', part='mixed', priorities=p):.3f} ms, "
                  f"p90 {median(rows, 'point_p90_ms', part='mixed', priorities=p):.3f} ms, "
                  f"p99 {median(rows, 'point_p99_ms', part='mixed', priorities=p):.3f} ms; SSB "
                  f"{median(rows, 'queries_per_hour', part='mixed', priorities=p):,.0f} queries/hour")
        verdict["point_p99_off_over_on"] = off / on if on else None
        print(f"  p99 off / on: {verdict['point_p99_off_over_on']:.1f}x (target >= 3)")
    with open(os.path.join(args.out, f"{args.name}.json"), "w") as f:
        json.dump({"scale": args.scale, "seed": args.seed, "duration": args.duration, "warmup": args.warmup,
                   "verdict": verdict, "runs": rows}, f, indent=1)
    flat = [{k: v for k, v in r.items() if k != "flights"} for r in rows]
    keys = sorted({k for r in flat for k in r})
    with open(os.path.join(args.out, f"{args.name}.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(flat)
    plot(args, rows)
    print(f"\nresults in {args.out}/{args.name}.json, {args.name}.csv and {args.name}_*.png")


def plot(args, rows):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sweep_rows = [r for r in rows if r["part"] == "sweep"]
    if sweep_rows:
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
        for deployment in ("local", "decoupled"):
            xs = [c for c in args.clients if median(rows, "queries_per_hour", part="sweep", deployment=deployment, clients=c)]
            ax1.plot(xs, [median(rows, "queries_per_hour", part="sweep", deployment=deployment, clients=c) for c in xs],
                     marker="o", label=deployment)
            for q, style in (("p50_s", "-"), ("p99_s", "--")):
                ax2.plot(xs, [median(rows, q, part="sweep", deployment=deployment, clients=c) for c in xs],
                         style, marker="o", label=f"{deployment} {q[:3]}")
        d = median(rows, "queries_per_hour", part="compare", system="duckdb")
        if d:
            ax1.scatter([args.compare_clients], [d], marker="x", color="black", label="DuckDB")
        for ax in (ax1, ax2):
            ax.set_xscale("log", base=2)
            ax.set_xlabel("clients")
            ax.legend()
        ax1.set_ylabel("queries/hour")
        ax2.set_ylabel("latency (s)")
        ax2.set_yscale("log")
        fig.suptitle(f"SSB, scale factor {args.scale}")
        fig.tight_layout()
        fig.savefig(os.path.join(args.out, f"{args.name}_throughput.png"), dpi=120)
    compare = [r for r in rows if r["part"] == "compare"]
    if compare:
        fig, ax = plt.subplots(figsize=(7, 4))
        width = 0.35
        for i, system in enumerate(("hpcdb", "duckdb")):
            values = [statistics.median([r["flights"][f]["p50_s"] for r in compare if r["system"] == system])
                      for f in ("1", "2", "3", "4")]
            ax.bar([x + i * width for x in range(4)], values, width, label=system)
        ax.set_xticks([x + width / 2 for x in range(4)], ["flight 1", "flight 2", "flight 3", "flight 4"])
        ax.set_ylabel("p50 latency (s)")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(args.out, f"{args.name}_latency.png"), dpi=120)
    mixed_rows = [r for r in rows if r["part"] == "mixed"]
    if mixed_rows:
        fig, ax = plt.subplots(figsize=(6, 4))
        labels = ["p50", "p90", "p99"]
        for i, p in enumerate(("on", "off")):
            values = [median(rows, f"point_{q}_ms", part="mixed", priorities=p) for q in labels]
            ax.bar([x + i * 0.35 for x in range(3)], values, 0.35, label=f"priorities {p}")
        ax.set_xticks([x + 0.175 for x in range(3)], labels)
        ax.set_yscale("log")
        ax.set_ylabel("point-query latency (ms)")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(args.out, f"{args.name}_priorities.png"), dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hpcdb", default=os.path.join(HERE, "..", "build", "hpcdb"))
    parser.add_argument("--scale", type=float, default=10)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs of the comparison and the mixed run")
    parser.add_argument("--sweep-repeat", type=int, default=1)
    parser.add_argument("--clients", default="1,4,16,64,256", help="client counts of the sweep")
    parser.add_argument("--compare-clients", type=int, default=64)
    parser.add_argument("--lookup-clients", type=int, default=4)
    parser.add_argument("--lookup-think-ms", type=float, default=1, help="each point-query client's pause between queries")
    parser.add_argument("--stream-length", type=int, default=200, help="queries per client in DuckDB's stream")
    parser.add_argument("--data", default=os.path.join(HERE, "results", "ssb-data"), help="where the CSV files go")
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    parser.add_argument("--name", default="ssb", help="results go to OUT/NAME.json, NAME.csv and NAME_*.png")
    parser.add_argument("--skip-sweep", action="store_true")
    parser.add_argument("--skip-duckdb", action="store_true")
    parser.add_argument("--skip-mixed", action="store_true")
    parser.add_argument("--prepare", action="store_true",
                        help="only make the CSV files and DuckDB's database file of this scale and seed, then exit")
    args = parser.parse_args()
    args.clients = [int(c) for c in args.clients.split(",")]
    args.hpcdb = os.path.abspath(args.hpcdb)
    if args.scale == int(args.scale):
        args.scale = int(args.scale)
    if args.prepare:
        load_duckdb(ensure_csv(args)).close()
        return
    rows = []
    if not args.skip_duckdb:
        rows += comparison(args)
    if not args.skip_mixed:
        rows += mixed(args)
    if not args.skip_sweep:
        rows += sweep(args)
    report(args, rows)


if __name__ == "__main__":
    main()
