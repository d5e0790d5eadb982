#!/usr/bin/env python3
"""The Star Schema Benchmark on hpcdb's decoupled storage engine, next to DuckDB.

    .venv/bin/python bench/ssb.py [--scale 5] [--clients 1,4,16,64,256] [--repeat 3]
        [--duration 60] [--warmup 10] [--skip-curve] [--skip-mixed]
        [--check-answers] [--local-sweep]

The project's environment (.venv, 'make python-bench') has duckdb and matplotlib.
All parts run at one scale factor (default 5) and seed:

  curve     both systems at every client count of --clients, interleaved,
            --repeat rounds: hpcdb ssb decoupled (one storage rank + one
            query-engine rank) with N closed-loop clients of random SSB
            queries; DuckDB (in this process, --duckdb-threads threads) on the
            same data (the CSV files of 'hpcdb generate --ssb', loaded once
            into a database file), running the same query stream (client c
            runs the queries hpcdb's client c draws: 'hpcdb ssb --stream-sql')
            from N closed-loop clients whose queries queue (first come, first
            served) for a pool of P connections,
            for every P of 1, 2, 4 and N; DuckDB's point at N is its best pool
            (medians over the rounds). A window must hold at least
            --min-cycles of hpcdb's batch cycles: a run with fewer is run
            again with twice the duration (for both systems at that count);
  mixed     --compare-clients SSB clients plus point-query clients (lookups
            by customer key) with --priorities on and off, interleaved:
            point-query latency under scan load;
  answers   (--check-answers) the 13 standard queries on hpcdb, one client
            and --compare-clients at once, each answer checked against
            DuckDB on the same data (bench/ssb_check.py);
  local     (--local-sweep) hpcdb local (one rank) against decoupled at
            every client count;
  report    tables on standard output, OUT/NAME.json and NAME.csv, and plots:
            NAME_curve.png (queries/hour and p99 against clients, both
            systems), NAME_priorities.png.

Queries per hour count the queries completed inside each run's measured
window (--duration less --warmup); latencies run from a client's issuing a
query to its answer (DuckDB: waiting for a connection included). The storage
rank's memory (peak resident set) is reported per run. Both systems hold
lineorder in order-date order (hpcdb's storage clusters it so; DuckDB's
table is loaded sorted the same way, --duckdb-order file keeps the CSV's
order instead). Scale factor 5 needs about 1.6 GB in hpcdb's storage rank,
a few GB in DuckDB, and 3 GB of CSV files in --data.
"""
import argparse
import collections
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


def mpirun(ranks):
    return ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(ranks)]


def hpcdb_ssb(args, ranks, extra, label, duration=None):
    """One hpcdb ssb run; returns its JSON document (with the load average at its start)."""
    duration = duration or args.duration
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [*mpirun(ranks), args.hpcdb, "ssb", "--scale", str(args.scale), "--seed", str(args.seed),
                   "--duration", str(duration), "--warmup", str(args.warmup), "--json", out.name, *extra]
        load = load_average()
        print(f"[{label}] load {load:.1f}: {' '.join(command)}", flush=True)
        done = subprocess.run(command, env=ENV, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"ssb.py: {' '.join(command)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
        print(done.stdout, flush=True)
        document = json.load(open(out.name))
        document["load_average"] = load
        return document


def window_cycles(document):
    """Batch cycles that fit the measured window: its completed queries over the queries per cycle."""
    q = document["query_engines"]
    per_cycle = q["queries_in_cycles"] / q["cycles"] if q["cycles"] else 0
    return document["throughput"]["completed"] / per_cycle if per_cycle else 0


def summary(document):
    flights = {str(f["flight"]): f for f in document["flights"]}
    points = document["point_queries"]
    memory = document["storage"].get("memory", {})
    return {"queries_per_hour": document["throughput"]["queries_per_hour"],
            "completed": document["throughput"]["completed"],
            "fewest_by_a_client": document["throughput"].get("by_a_client", {}).get("fewest"),
            "p50_s": flights["all"]["p50_s"], "p90_s": flights["all"]["p90_s"], "p99_s": flights["all"]["p99_s"],
            "flights": {k: {"p50_s": v["p50_s"], "p90_s": v["p90_s"], "p99_s": v["p99_s"],
                            "queries_per_hour": v["queries_per_hour"]} for k, v in flights.items()},
            "window_cycles": window_cycles(document),
            "queries_per_cycle": (document["query_engines"]["queries_in_cycles"] /
                                  max(1, document["query_engines"]["cycles"])),
            "storage_peak_bytes": memory.get("peak_resident_bytes", 0),
            "bytes_moved": document["bytes_moved"]["between_ranks"],
            "point_queries": points["count"], "point_p50_ms": points["p50_ms"], "point_p90_ms": points["p90_ms"],
            "point_p99_ms": points["p99_ms"], "load_average": document["load_average"]}


# --- DuckDB ------------------------------------------------------------------

def ensure_csv(args):
    """The CSV files of this scale and seed in --data (made once, reused)."""
    directory = os.path.join(args.data, f"sf{args.scale}-seed{args.seed}")
    stamp = os.path.join(directory, "complete")
    if not os.path.exists(stamp):
        os.makedirs(directory, exist_ok=True)
        command = [*mpirun(2), args.hpcdb, "generate", "--ssb", "--scale", str(args.scale), "--seed", str(args.seed),
                   "--output-dir", directory]
        print(" ".join(command), flush=True)
        subprocess.run(command, env=ENV, check=True)
        open(stamp, "w").write("ok\n")
    return directory


def load_duckdb(args, directory):
    """DuckDB over the tables of `directory`: loaded from the CSV files once
    into a database file beside them, which later runs open read-only."""
    import duckdb
    path = os.path.join(directory, f"ssb-{args.duckdb_order}.duckdb")
    if not os.path.exists(path):
        start = time.time()
        partial = path + ".partial"
        if os.path.exists(partial):
            os.remove(partial)
        con = duckdb.connect(partial)
        for t in TABLES:
            order = " order by lo_orderdate" if t == "lineorder" and args.duckdb_order == "date" else ""
            con.execute(f"create table \"{t}\" as select * from read_csv('{directory}/{t}.csv', header=true){order}")
        con.close()
        os.rename(partial, path)
        print(f"DuckDB {duckdb.__version__}: loaded {directory} into {path} in {time.time() - start:.1f} s", flush=True)
    con = duckdb.connect(path, read_only=True)
    con.execute(f"set threads = {args.duckdb_threads}")
    # The columns the queries read into DuckDB's buffers before the first timed run.
    con.execute("select sum(lo_custkey), sum(lo_partkey), sum(lo_suppkey), sum(lo_orderdate), sum(lo_quantity), "
                "sum(lo_extendedprice), sum(lo_discount), sum(lo_revenue), sum(lo_supplycost) from lineorder").fetchall()
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


def run_duckdb(args, con, stream, pool, duration, label):
    """The clients' streams, closed loop, sharing `pool` connections for
    `duration` s (--warmup not counted). The clients' queries wait in one
    first-come, first-served queue that each connection's worker takes from:
    a client that has just been answered queues behind the others (a lock
    or a queue of free connections would hand the connection straight back
    to it and starve the rest)."""
    start = time.time()
    stop = start + duration
    results = queue.Queue()
    requests = queue.Queue()  # (sql, answered event, errors); None stops a worker

    def worker():
        cursor = con.cursor()
        while (request := requests.get()) is not None:
            sql, answered, errors = request
            try:
                cursor.execute(sql).fetchall()
            except Exception as error:  # the client raises it
                errors.append(error)
            answered.set()

    def client(number, queries):
        i = 0
        while time.time() < stop:
            q = queries[i % len(queries)]
            i += 1
            began = time.time()
            answered, errors = threading.Event(), []
            requests.put((q["sql"], answered, errors))
            answered.wait()
            if errors:
                raise errors[0]
            ended = time.time()
            if start + args.warmup <= ended <= stop:
                results.put((q["flight"], ended - began, number))

    load = load_average()
    workers = [threading.Thread(target=worker) for _ in range(pool)]
    threads = [threading.Thread(target=client, args=(n, s)) for n, s in enumerate(stream)]
    for t in workers + threads:
        t.start()
    for t in threads:
        t.join()
    for _ in workers:
        requests.put(None)
    for t in workers:
        t.join()
    done = []
    while not results.empty():
        done.append(results.get())
    window = duration - args.warmup
    latencies = [d for _, d, _ in done]
    by_client = collections.Counter(c for _, _, c in done)
    result = {"queries_per_hour": 3600 * len(done) / window, "completed": len(done),
              "p50_s": percentile(latencies, 0.5), "p90_s": percentile(latencies, 0.9),
              "p99_s": percentile(latencies, 0.99), "load_average": load,
              "fewest_by_a_client": min(by_client.get(c, 0) for c in range(len(stream)))}
    print(f"[{label}] load {load:.1f}: {len(done)} queries in {window:.0f} s = {result['queries_per_hour']:,.0f} "
          f"queries/hour, p50 {result['p50_s']:.3f} s, p99 {result['p99_s']:.3f} s", flush=True)
    return result


# --- the parts -----------------------------------------------------------------

def pools_for(args, clients):
    return sorted({p for p in args.pools if p <= clients} | {clients})


def curve(args):
    con = None
    if not args.skip_duckdb:
        con = load_duckdb(args, ensure_csv(args))
    rows = []
    durations = {c: args.duration for c in args.clients}
    streams = {}
    for r in range(args.repeat):
        for clients in args.clients:
            extra = ["--deployment", "decoupled", "--clients", str(clients), *args.hpcdb_args]
            for attempt in range(4):
                doc = hpcdb_ssb(args, 2, extra, f"curve hpcdb {clients} clients #{r + 1}", durations[clients])
                cycles = window_cycles(doc)
                if cycles >= args.min_cycles or attempt == 3:
                    break
                durations[clients] *= 2
                print(f"  the window held {cycles:.1f} batch cycles (< {args.min_cycles}): again with "
                      f"--duration {durations[clients]}", flush=True)
            rows.append({"part": "curve", "system": "hpcdb", "clients": clients, "pool": 0, "run": r + 1,
                         "duration": durations[clients], **summary(doc)})
            if con is None:
                continue
            if clients not in streams:
                streams[clients] = query_stream(args, clients)
            for pool in pools_for(args, clients):
                result = run_duckdb(args, con, streams[clients], pool, durations[clients],
                                    f"curve duckdb {clients} clients, {pool} connection(s) #{r + 1}")
                rows.append({"part": "curve", "system": "duckdb", "clients": clients, "pool": pool, "run": r + 1,
                             "duration": durations[clients], **result})
    if con is not None:
        con.close()
    return rows


def mixed(args):
    rows = []
    for r in range(args.repeat):
        for priorities in ("on", "off"):
            doc = hpcdb_ssb(args, 2, ["--deployment", "decoupled", "--clients", str(args.compare_clients),
                                      "--lookup-clients", str(args.lookup_clients), "--lookup-think-ms",
                                      str(args.lookup_think_ms), "--priorities", priorities, *args.hpcdb_args],
                            f"mixed priorities {priorities} #{r + 1}")
            rows.append({"part": "mixed", "priorities": priorities, "clients": args.compare_clients,
                         "lookup_clients": args.lookup_clients, "run": r + 1, **summary(doc)})
    return rows


def answers(args):
    """The 13 standard queries, one at a time and all at once, checked against DuckDB."""
    directory = ensure_csv(args)
    rows = []
    files = []
    for clients in (1, args.compare_clients):
        path = os.path.join(args.out, f"{args.name}_answers_{clients}.json")
        hpcdb_ssb(args, 2, ["--deployment", "decoupled", "--queries", "standard", "--clients", str(clients),
                            "--answers", path, *args.hpcdb_args], f"answers, {clients} client(s)")
        files.append(path)
    command = [sys.executable, os.path.join(HERE, "ssb_check.py"), "--data", directory, "--answers", *files,
               "--expect-per-engine", "13", "--exact"]
    print(" ".join(command), flush=True)
    done = subprocess.run(command, capture_output=True, text=True)
    print(done.stdout[-4000:], done.stderr[-2000:], flush=True)
    rows.append({"part": "answers", "files": files, "passed": done.returncode == 0})
    return rows


def local_sweep(args):
    rows = []
    for clients in args.clients:
        for deployment, ranks in (("local", 1), ("decoupled", 2)):
            doc = hpcdb_ssb(args, ranks, ["--deployment", deployment, "--clients", str(clients), *args.hpcdb_args],
                            f"local sweep {deployment} {clients} clients")
            rows.append({"part": "local", "deployment": deployment, "clients": clients, **summary(doc)})
    return rows


def median(rows, key, **match):
    values = [r[key] for r in rows if all(r.get(k) == v for k, v in match.items())]
    return statistics.median(values) if values else None


def best_pool(rows, clients):
    """DuckDB's best pool at `clients`: (pool, median queries/hour)."""
    pools = sorted({r["pool"] for r in rows if r["part"] == "curve" and r["system"] == "duckdb" and r["clients"] == clients})
    scored = [(median(rows, "queries_per_hour", part="curve", system="duckdb", clients=clients, pool=p), p) for p in pools]
    if not scored:
        return None, None
    qph, pool = max(scored)
    return pool, qph


def report_curve(args, rows, verdict):
    print(f"\n{'clients':>7} {'hpcdb q/h':>11} {'p50 s':>7} {'p99 s':>7} {'cycles':>7} {'runs':>24} | "
          f"{'DuckDB q/h':>11} {'pool':>5} {'p50 s':>7} {'p99 s':>7} {'runs':>24} | {'ratio':>6}")
    for clients in args.clients:
        m = lambda k, **kw: median(rows, k, part="curve", clients=clients, **kw)
        h = m("queries_per_hour", system="hpcdb")
        if h is None:
            continue
        runs = ", ".join(f"{r['queries_per_hour']:,.0f}" for r in rows
                         if r["part"] == "curve" and r["system"] == "hpcdb" and r["clients"] == clients)
        line = (f"{clients:>7} {h:>11,.0f} {m('p50_s', system='hpcdb'):>7.3f} {m('p99_s', system='hpcdb'):>7.3f} "
                f"{m('window_cycles', system='hpcdb'):>7.1f} {runs:>24} | ")
        pool, d = best_pool(rows, clients)
        if d:
            druns = ", ".join(f"{r['queries_per_hour']:,.0f}" for r in rows if r["part"] == "curve" and
                              r["system"] == "duckdb" and r["clients"] == clients and r["pool"] == pool)
            line += (f"{d:>11,.0f} {pool:>5} {m('p50_s', system='duckdb', pool=pool):>7.3f} "
                     f"{m('p99_s', system='duckdb', pool=pool):>7.3f} {druns:>24} | {h / d:>5.2f}x")
            verdict[f"hpcdb_over_duckdb_{clients}"] = h / d
        print(line)
    print("\nfewest answers a client got in a run's window (a starved client has none):")
    for clients in args.clients:
        def fewest(**kw):
            values = [r.get("fewest_by_a_client") for r in rows if r["part"] == "curve" and r["clients"] == clients and
                      all(r.get(k) == v for k, v in kw.items())]
            values = [v for v in values if v is not None]
            return min(values) if values else "-"
        pool = best_pool(rows, clients)[0]
        print(f"  {clients:>4} clients: hpcdb {fewest(system='hpcdb')}, DuckDB with {pool} connection(s) "
              f"{fewest(system='duckdb', pool=pool)}")
    pools = sorted({r["pool"] for r in rows if r["part"] == "curve" and r["system"] == "duckdb"})
    if pools:
        print("\nDuckDB by pool (median queries/hour):")
        for clients in args.clients:
            cells = [f"{p}: {median(rows, 'queries_per_hour', part='curve', system='duckdb', clients=clients, pool=p):,.0f}"
                     for p in pools_for(args, clients)
                     if median(rows, 'queries_per_hour', part='curve', system='duckdb', clients=clients, pool=p) is not None]
            print(f"  {clients:>4} clients: " + ", ".join(cells))
    one_d = median(rows, "queries_per_hour", part="curve", system="duckdb", clients=1, pool=1)
    one_h = median(rows, "queries_per_hour", part="curve", system="hpcdb", clients=1)
    if one_d and one_h:
        print(f"  1 client: hpcdb / DuckDB with 1 connection: {one_h / one_d:.2f}x (bar >= 1.0)")
    if 64 in args.clients and best_pool(rows, 64)[1]:
        print(f"  64 clients: hpcdb / DuckDB's best pool: {verdict['hpcdb_over_duckdb_64']:.2f}x (bar >= 3.0)")
    at64 = median(rows, "queries_per_hour", part="curve", system="hpcdb", clients=64)
    at256 = median(rows, "queries_per_hour", part="curve", system="hpcdb", clients=256)
    if at64 and at256 is not None:
        verdict["hpcdb_256_over_64"] = at256 / at64
        print(f"  256 clients: hpcdb at 256 / at 64 clients: {at256 / at64:.2f} (bar >= 1.0)")
    peak = max((r["storage_peak_bytes"] for r in rows if r.get("system") == "hpcdb"), default=0)
    if peak:
        print(f"  storage rank's peak resident memory: {peak / 2**30:.2f} GiB")


def report(args, rows):
    os.makedirs(args.out, exist_ok=True)
    verdict = {}
    print(f"\n=== SSB at scale factor {args.scale} (medians of {args.repeat} interleaved rounds) ===")
    if any(r["part"] == "curve" for r in rows):
        report_curve(args, rows, verdict)
    if any(r["part"] == "mixed" for r in rows):
        on = median(rows, "point_p99_ms", part="mixed", priorities="on")
        off = median(rows, "point_p99_ms", part="mixed", priorities="off")
        print(f"\npoint queries under scan load ({args.lookup_clients} lookup clients, {args.lookup_think_ms} ms think "
              f"time, beside {args.compare_clients} SSB clients):")
        for p in ("on", "off"):
            print(f"  priorities {p:>3}: {median(rows, 'point_queries', part='mixed', priorities=p):,.0f} point queries, "
                  f"p50 {median(rows, 'point_p50_ms', part='mixed', priorities=p):.3f} ms, "
                  f"p90 {median(rows, 'point_p90_ms', part='mixed', priorities=p):.3f} ms, "
                  f"p99 {median(rows, 'point_p99_ms', part='mixed', priorities=p):.3f} ms; SSB "
                  f"{median(rows, 'queries_per_hour', part='mixed', priorities=p):,.0f} queries/hour")
        verdict["point_p99_off_over_on"] = off / on if on else None
    if any(r["part"] == "local" for r in rows):
        print(f"\n{'deployment':>10} {'clients':>8} {'queries/hour':>14} {'p50 s':>8} {'p99 s':>8}")
        for r in rows:
            if r["part"] == "local":
                print(f"{r['deployment']:>10} {r['clients']:>8} {r['queries_per_hour']:>14,.0f} {r['p50_s']:>8.3f} "
                      f"{r['p99_s']:>8.3f}")
    for r in rows:
        if r["part"] == "answers":
            verdict["answers_equal_duckdb"] = r["passed"]
            print(f"\nstandard answers against DuckDB at scale factor {args.scale}: {'equal' if r['passed'] else 'DIFFER'}")
    with open(os.path.join(args.out, f"{args.name}.json"), "w") as f:
        json.dump({"scale": args.scale, "seed": args.seed, "duration": args.duration, "warmup": args.warmup,
                   "verdict": verdict, "runs": rows}, f, indent=1)
    flat = [{k: v for k, v in r.items() if k not in ("flights", "files")} for r in rows]
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
    if any(r["part"] == "curve" for r in rows):
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
        xs = [c for c in args.clients if median(rows, "queries_per_hour", part="curve", system="hpcdb", clients=c) is not None]
        ax1.plot(xs, [median(rows, "queries_per_hour", part="curve", system="hpcdb", clients=c) for c in xs],
                 marker="o", label="hpcdb (1 storage + 1 query-engine rank)")
        ax2.plot(xs, [median(rows, "p99_s", part="curve", system="hpcdb", clients=c) for c in xs], marker="o",
                 label="hpcdb p99")
        dx = [c for c in xs if best_pool(rows, c)[1]]
        if dx:
            ax1.plot(dx, [best_pool(rows, c)[1] for c in dx], marker="s",
                     label=f"DuckDB ({args.duckdb_threads} threads, best pool of 1, 2, 4, N)")
            ax2.plot(dx, [median(rows, "p99_s", part="curve", system="duckdb", clients=c, pool=best_pool(rows, c)[0])
                          for c in dx], marker="s", label="DuckDB p99 (best pool)")
        for ax in (ax1, ax2):
            ax.set_xscale("log", base=2)
            ax.set_xticks(xs, [str(c) for c in xs])
            ax.set_xlabel("closed-loop clients")
            ax.legend(fontsize=8)
        ax1.set_ylabel("queries/hour")
        ax2.set_ylabel("p99 latency (s)")
        ax2.set_yscale("log")
        fig.suptitle(f"SSB, scale factor {args.scale}, medians of {args.repeat} rounds")
        fig.tight_layout()
        fig.savefig(os.path.join(args.out, f"{args.name}_curve.png"), dpi=120)
    if any(r["part"] == "mixed" for r in rows):
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
    parser.add_argument("--scale", type=float, default=5)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds of the curve and the mixed run")
    parser.add_argument("--clients", default="1,4,16,64,256", help="client counts of the curve")
    parser.add_argument("--pools", default="1,2,4", help="DuckDB connection pools tried at each client count "
                        "(and the client count itself)")
    parser.add_argument("--min-cycles", type=float, default=5, help="hpcdb batch cycles a measured window must hold")
    parser.add_argument("--compare-clients", type=int, default=64)
    parser.add_argument("--lookup-clients", type=int, default=4)
    parser.add_argument("--lookup-think-ms", type=float, default=1, help="each point-query client's pause between queries")
    parser.add_argument("--stream-length", type=int, default=200, help="queries per client in DuckDB's stream")
    parser.add_argument("--duckdb-threads", type=int, default=2)
    parser.add_argument("--duckdb-order", choices=["date", "file"], default="date",
                        help="lineorder's row order in DuckDB: by lo_orderdate (as hpcdb keeps it) or as in the CSV file")
    parser.add_argument("--hpcdb-args", default="", help="more options for every hpcdb ssb run (quoted)")
    parser.add_argument("--data", default=os.path.join(HERE, "results", "ssb-data"), help="where the CSV files go")
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    parser.add_argument("--name", default="ssb", help="results go to OUT/NAME.json, NAME.csv and NAME_*.png")
    parser.add_argument("--skip-curve", action="store_true")
    parser.add_argument("--skip-duckdb", action="store_true", help="the curve without DuckDB")
    parser.add_argument("--skip-mixed", action="store_true")
    parser.add_argument("--check-answers", action="store_true")
    parser.add_argument("--local-sweep", action="store_true")
    parser.add_argument("--prepare", action="store_true",
                        help="only make the CSV files and DuckDB's database file of this scale and seed, then exit")
    args = parser.parse_args()
    args.clients = [int(c) for c in args.clients.split(",")]
    args.pools = [int(p) for p in args.pools.split(",")]
    args.hpcdb_args = args.hpcdb_args.split()
    args.hpcdb = os.path.abspath(args.hpcdb)
    if args.scale == int(args.scale):
        args.scale = int(args.scale)
    os.makedirs(args.out, exist_ok=True)
    if args.prepare:
        load_duckdb(args, ensure_csv(args)).close()
        return
    rows = []
    if not args.skip_curve:
        rows += curve(args)
    if not args.skip_mixed:
        rows += mixed(args)
    if args.check_answers:
        rows += answers(args)
    if args.local_sweep:
        rows += local_sweep(args)
    report(args, rows)


if __name__ == "__main__":
    main()
