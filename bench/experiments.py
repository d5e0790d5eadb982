#!/usr/bin/env python3
"""The seeds' experiment types at this machine's scale, one command each.

    .venv/bin/python bench/experiments.py phases|size|ratio|skew|shape|bandwidth|topologies|multiplicity|all-to-all [--repeat 5] [--rounds 1] [--quick]

Every point runs `hpcdb join --repeat N --json` and is reported as the median
of the N runs with a 95% bootstrap confidence interval; results go to
bench/results/<experiment>.csv and .png. `bandwidth` runs on emulated hosts
(scripts/emulated_cluster.sh, root only) and puts the model next to the
measurement, from a calibration made on the same emulated network.
`topologies` and `multiplicity` run the ring (cyclo), broadcast (topologies:
along the ring and by MPI_Ibcast) and radix joins (streaming, synchronized
and unsynchronized exchange) on 4 emulated hosts at 1 Gbit/s (`--rate` for
another link rate; each host's
link shaped both ways, as a switch port would, with `--port-buffer` of queue at
each switch port), the model next to each measurement, every variant once per round
(`--rounds`), each point labelled with the load averages it ran under;
`all-to-all` runs `hpcdb netbench --all-to-all` (thesis section 6.1) there.
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
RADIX_PHASES = ["histogram", "window_allocation", "network_partition", "network_wait", "local_partition", "build_probe"]
SORT_MERGE_PHASES = ["partition", "window_allocation", "sort", "sort_wait", "merge", "match"]


def run_join(args, join_args, ranks=2, threads=1, launcher=None, refusal_ok=False):
    """The runs' JSON objects; None when refusal_ok and the join was refused for memory."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [args.hpcdb, "join", *join_args, "--threads", str(threads), "--repeat", str(args.repeat),
                   "--json", out.name]
        if launcher is None:
            command = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(ranks), *command]
        else:
            command = [*launcher, "--", *command]
        done = subprocess.run(command, env=ENV, capture_output=True, text=True)
        if refusal_ok and done.returncode == 2 and "of memory on this node" in done.stderr:
            print(f"  refused: {done.stderr.strip().splitlines()[-1][:300]}", flush=True)
            return None
        if done.returncode != 0:
            sys.exit(f"experiments.py: {' '.join(command)} failed:\n{done.stderr[-3000:]}")
        runs = json.load(open(out.name))
    return runs if isinstance(runs, list) else [runs]


def median_ci(values, rng=np.random.default_rng(1)):
    values = np.asarray(values, dtype=float)
    medians = np.median(rng.choice(values, size=(2000, len(values)), replace=True), axis=1)
    return float(np.median(values)), float(np.percentile(medians, 2.5)), float(np.percentile(medians, 97.5))


def point(runs, **labels):
    seconds = [r["seconds"] for r in runs]
    median, low, high = median_ci(seconds)
    tuples = runs[0]["inner_tuples"] + runs[0]["outer_tuples"]
    row = dict(labels, median_seconds=median, ci_low=low, ci_high=high, tuples_per_second=tuples / median,
               matches=runs[0]["matches"], verified=all(r.get("verified") is not False for r in runs))
    for name in runs[0]["phases"]:
        row[f"phase_{name}"] = float(np.median([r["phases"][name]["max"] for r in runs]))
    if "memory" in runs[0]:
        memory = runs[0]["memory"]
        row["peak_bytes_per_rank"] = memory["peak_bytes_per_rank"]
        row["input_bytes_per_rank"] = memory["input_bytes_per_rank"]
        row["estimate_bytes_per_rank"] = memory["estimate_bytes_per_rank"]
        row["peak_over_input"] = memory["peak_bytes_per_rank"] / max(1, memory["input_bytes_per_rank"])
    if "model" in runs[0]:
        row["model_seconds"] = runs[0]["model"]["seconds"]
        row["network_bound"] = runs[0]["model"]["network_bound"]
    return row


def save(args, name, rows):
    os.makedirs(args.out, exist_ok=True)
    keys = []
    for row in rows:
        keys += [k for k in row if k not in keys]
    path = os.path.join(args.out, f"{name}.csv")
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=keys)
        writer.writeheader()
        writer.writerows(rows)
    for row in rows:
        label = " ".join(f"{k}={v}" for k, v in row.items() if k in ("algorithm", "x", "variant"))
        print(f"  {label:<50} {row['median_seconds']:.4f} s [{row['ci_low']:.4f}, {row['ci_high']:.4f}] "
              f"{row['tuples_per_second'] / 1e6:7.1f} M/s" + (f"  model {row['model_seconds']:.4f} s" if "model_seconds" in row else ""))
    print(f"written {path}")


def plot(args, name, draw):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4))
    draw(ax)
    fig.tight_layout()
    path = os.path.join(args.out, f"{name}.png")
    fig.savefig(path, dpi=120)
    print(f"written {path}")


def lines(rows, x_label, ylabel="M input tuples/s (median, 95% CI)"):
    def draw(ax):
        for series in sorted({r["variant"] for r in rows}):
            pts = [r for r in rows if r["variant"] == series]
            xs = list(range(len(pts)))
            tps = [r["tuples_per_second"] / 1e6 for r in pts]
            tuples = [r["tuples_per_second"] * r["median_seconds"] for r in pts]
            low = [t / 1e6 / r["ci_high"] for t, r in zip(tuples, pts)]
            high = [t / 1e6 / r["ci_low"] for t, r in zip(tuples, pts)]
            # Clipped at 0: with one run the interval is the point, up to rounding.
            yerr = [np.maximum(0, np.subtract(tps, low)), np.maximum(0, np.subtract(high, tps))]
            ax.errorbar(xs, tps, yerr=yerr, marker="o", capsize=3, label=series)
            ax.set_xticks(xs, [str(r["x"]) for r in pts])
        ax.set_xlabel(x_label)
        ax.set_ylabel(ylabel)
        ax.legend()
    return draw


def size_arg(args, text):
    return text if not args.quick else {"32M": "4M", "16M": "2M", "8M": "1M", "4M": "512K", "64M": "8M", "128M": "16M"}.get(text, text)


def phases(args):
    rows = []
    for algorithm in ["radix", "sort-merge"]:
        runs = run_join(args, ["--algorithm", algorithm, "--inner", size_arg(args, "32M"), "--outer", size_arg(args, "32M")])
        rows.append(point(runs, algorithm=algorithm, variant=algorithm, x=f"{size_arg(args, '32M')} x {size_arg(args, '32M')}"))
    save(args, "phases", rows)

    def draw(ax):
        for i, row in enumerate(rows):
            names = RADIX_PHASES if row["algorithm"] == "radix" else SORT_MERGE_PHASES
            bottom = 0.0
            for name in names:
                value = row.get(f"phase_{name}", 0.0)
                ax.bar(i, value, bottom=bottom, label=f"{row['algorithm']}: {name}")
                bottom += value
        ax.set_xticks(range(len(rows)), [r["algorithm"] for r in rows])
        ax.set_ylabel("seconds (median of max over ranks)")
        ax.legend(fontsize=7, ncol=2)
    plot(args, "phases", draw)


def size(args):
    """Both joins from 8M x 8M up to the largest size the machine holds (a size the
    join refuses for memory ends its series): throughput and peak memory per rank."""
    rows = []
    sizes = ["8M", "16M", "32M", "64M", "128M", "160M", "256M", "384M", "512M"]
    if args.quick:
        sizes = ["1M", "2M", "4M", "8M"]
    for algorithm in ["radix", "sort-merge"]:
        for n in sizes:
            runs = run_join(args, ["--algorithm", algorithm, "--inner", n, "--outer", n], refusal_ok=True)
            if runs is None:
                break
            row = point(runs, algorithm=algorithm, variant=algorithm, x=n)
            print(f"  {algorithm} {n}: {row['tuples_per_second'] / 1e6:.1f} M tuples/s, peak "
                  f"{row['peak_bytes_per_rank'] / 2**30:.2f} GiB per rank = {row['peak_over_input']:.2f}x its input, "
                  f"estimate {row['estimate_bytes_per_rank'] / 2**30:.2f} GiB (load {load_average()})", flush=True)
            rows.append(row)
    save(args, "size", rows)
    plot(args, "size", lines(rows, "tuples per relation"))

    def draw_memory(ax):
        for series in sorted({r["variant"] for r in rows}):
            pts = [r for r in rows if r["variant"] == series]
            ax.plot(range(len(pts)), [r["peak_over_input"] for r in pts], marker="o", label=f"{series}: measured peak")
            ax.plot(range(len(pts)), [r["estimate_bytes_per_rank"] / r["input_bytes_per_rank"] for r in pts],
                    linestyle="--", label=f"{series}: estimate")
            ax.set_xticks(range(len(pts)), [str(r["x"]) for r in pts])
        ax.set_xlabel("tuples per relation")
        ax.set_ylabel("memory per rank / its input")
        ax.legend()
    plot(args, "size_memory", draw_memory)


def ratio(args):
    rows = []
    outer = size_arg(args, "32M")
    base = int(outer.rstrip("MK")) * (10**6 if outer.endswith("M") else 10**3)
    for algorithm in ["radix", "sort-merge"]:
        for r in [1, 2, 4, 8]:
            rows.append(point(run_join(args, ["--algorithm", algorithm, "--inner", str(base // r), "--outer", outer]),
                              algorithm=algorithm, variant=algorithm, x=f"1:{r}"))
    save(args, "ratio", rows)
    plot(args, "ratio", lines(rows, "|R| : |S|"))


def skew(args):
    rows = []
    inner, outer = size_arg(args, "4M"), size_arg(args, "32M")
    for algorithm, variant, extra in [("radix", "radix round-robin", ["--assignment", "round-robin"]),
                                      ("radix", "radix skew-aware", ["--assignment", "skew-aware"]),
                                      ("sort-merge", "sort-merge equal", ["--splitters", "equal"]),
                                      ("sort-merge", "sort-merge sampled", ["--splitters", "sampled"])]:
        for theta in ["0", "1.05", "1.2"]:
            runs = run_join(args, ["--algorithm", algorithm, "--inner", inner, "--outer", outer, "--zipf", theta, *extra])
            rows.append(point(runs, algorithm=algorithm, variant=variant, x=theta))
    save(args, "skew", rows)
    plot(args, "skew", lines(rows, "Zipf factor of the outer foreign keys"))


def shape(args):
    rows = []
    n = size_arg(args, "32M")
    for algorithm in ["radix", "sort-merge"]:
        for ranks, threads in [(2, 1), (1, 2), (1, 1)]:
            runs = run_join(args, ["--algorithm", algorithm, "--inner", n, "--outer", n], ranks=ranks, threads=threads)
            rows.append(point(runs, algorithm=algorithm, variant=algorithm, x=f"{ranks}x{threads}"))
    save(args, "shape", rows)
    plot(args, "shape", lines(rows, "ranks x threads per rank"))


def bandwidth(args):
    rows = []
    n = size_arg(args, "8M")
    with tempfile.TemporaryDirectory() as work:
        for rate in ["1gbit", "10gbit"]:
            for hosts in [2, 3, 4]:
                # Calibrated on the very layout of the join, every rank busy at once:
                # the emulated hosts share this machine's cores and kernel.
                launcher = emulated_launcher(args, hosts, rate)
                calibration = os.path.join(work, f"cal-{rate}-{hosts}.json")
                subprocess.run(launcher + ["--", args.hpcdb, "calibrate", "--concurrent", "--tuples", "4Mi",
                                           "--repeat", "2", "--output", calibration],
                               env=ENV, check=True, capture_output=True)
                runs = run_join(args, ["--inner", n, "--outer", n, "--calibration", calibration], launcher=launcher)
                rows.append(point(runs, algorithm="radix", variant=f"measured {rate}", x=hosts))
    save(args, "bandwidth", rows)

    def draw(ax):
        for rate, color in [("1gbit", "tab:blue"), ("10gbit", "tab:green")]:
            pts = [r for r in rows if r["variant"] == f"measured {rate}"]
            xs = [r["x"] for r in pts]
            ax.errorbar(xs, [r["median_seconds"] for r in pts],
                        yerr=[[r["median_seconds"] - r["ci_low"] for r in pts], [r["ci_high"] - r["median_seconds"] for r in pts]],
                        marker="o", capsize=3, color=color, label=f"measured, {rate}")
            ax.plot(xs, [r["model_seconds"] for r in pts], linestyle="--", marker="x", color=color, label=f"model, {rate}")
        ax.set_xlabel("emulated hosts (one rank each)")
        ax.set_ylabel("join seconds")
        ax.legend()
    plot(args, "bandwidth", draw)


# The joins on emulated hosts: (algorithm, variant label, extra options).
EMULATED_JOINS = [("cyclo", "cyclo", []), ("broadcast", "broadcast", []),
                  ("broadcast", "broadcast ibcast", ["--transport", "ibcast"]),
                  ("radix", "radix streaming", []),
                  ("radix", "radix synchronized", ["--schedule", "synchronized"]),
                  ("radix", "radix unsynchronized", ["--schedule", "unsynchronized"]),
                  ("radix", "radix sync. messages", ["--schedule", "synchronized", "--exchange", "messages"]),
                  ("radix", "radix unsync. messages", ["--schedule", "unsynchronized", "--exchange", "messages"])]


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def rate_gbit(rate):
    """A tc rate ('1gbit', '100mbit', '500mbit') in Gbit/s."""
    for suffix, scale in (("gbit", 1.0), ("mbit", 1e-3), ("kbit", 1e-6)):
        if rate.endswith(suffix):
            return float(rate[:-len(suffix)]) * scale
    sys.exit(f"experiments.py: --rate {rate}: give it as Ngbit, Nmbit or Nkbit")


def emulated_launcher(args, hosts, rate):
    if os.geteuid() != 0:
        sys.exit("experiments.py: emulated hosts need root (network namespaces)")
    cluster = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "emulated_cluster.sh")
    return [cluster, "--hosts", str(hosts), "--rate", rate, "--port-buffer", args.port_buffer]


def calibrate_on(args, launcher, path):
    subprocess.run(launcher + ["--", args.hpcdb, "calibrate", "--concurrent", "--tuples", "4Mi",
                               "--repeat", "2", "--output", path], env=ENV, check=True, capture_output=True)


def interleaved(args, launcher, calibration, variants, sizes):
    """Every (variant, size) once per round, rounds after each other, so that
    a busy minute of the shared machine hits every variant alike; each point
    is the median over all rounds' runs, labelled with the load averages seen."""
    runs, loads = {}, {}
    for round_ in range(args.rounds):
        for algorithm, variant, extra in variants:
            for inner, outer, x in sizes:
                loads.setdefault((variant, x), []).append(load_average())
                got = run_join(args, ["--algorithm", algorithm, "--inner", inner, "--outer", outer,
                                      "--calibration", calibration, *extra], launcher=launcher)
                runs.setdefault((variant, x), []).extend(got)
                print(f"  round {round_ + 1}/{args.rounds} {variant} {x}: "
                      f"{np.median([r['seconds'] for r in got]):.4f} s (load {loads[(variant, x)][-1]:.2f})", flush=True)
    rows = []
    for algorithm, variant, extra in variants:
        for inner, outer, x in sizes:
            row = point(runs[(variant, x)], algorithm=algorithm, variant=variant, x=x)
            row["measured_over_model"] = row["median_seconds"] / row["model_seconds"]
            row["load_min"], row["load_max"] = min(loads[(variant, x)]), max(loads[(variant, x)])
            rows.append(row)
    return rows


def topologies(args):
    """The issue's bar: each join against its model on 4 hosts at 1 Gbit/s, 8M x 8M,
    synchronized and unsynchronized radix in the same run, variants interleaved."""
    launcher = emulated_launcher(args, 4, args.rate)
    n = size_arg(args, "8M")
    with tempfile.TemporaryDirectory() as work:
        calibration = os.path.join(work, "cal.json")
        calibrate_on(args, launcher, calibration)
        rows = interleaved(args, launcher, calibration, EMULATED_JOINS, [(n, n, f"4 hosts, {args.rate}")])
    save(args, "topologies", rows)
    for row in rows:
        print(f"  {row['variant']:<22} measured/model {row['measured_over_model']:.2f}"
              f"  (load {row['load_min']:.1f}-{row['load_max']:.1f})")

    def draw(ax):
        xs = range(len(rows))
        ax.bar([x - 0.2 for x in xs], [r["median_seconds"] for r in rows], width=0.4, label="measured (median)")
        ax.bar([x + 0.2 for x in xs], [r["model_seconds"] for r in rows], width=0.4, label="model")
        ax.set_xticks(list(xs), [r["variant"] for r in rows], rotation=20, fontsize=7)
        ax.set_ylabel(f"join seconds, 4 emulated hosts at {args.rate}")
        ax.legend()
    plot(args, "topologies", draw)


def multiplicity(args):
    """|R| = 1..12 x |S| (thesis Fig. 4.6): ring and broadcast move S only, radix moves both."""
    launcher = emulated_launcher(args, 4, args.rate)
    outer = 4_000_000 if not args.quick else 500_000
    variants = [v for v in EMULATED_JOINS if v[1] in ("cyclo", "broadcast", "radix synchronized")]
    sizes = [(str(m * outer), str(outer), m) for m in [1, 2, 3, 4, 6, 8, 10, 12]]
    with tempfile.TemporaryDirectory() as work:
        calibration = os.path.join(work, "cal.json")
        calibrate_on(args, launcher, calibration)
        rows = interleaved(args, launcher, calibration, variants, sizes)
    save(args, "multiplicity", rows)

    def draw(ax):
        for series in sorted({r["variant"] for r in rows}):
            pts = [r for r in rows if r["variant"] == series]
            ax.plot([r["x"] for r in pts], [r["median_seconds"] for r in pts], marker="o", label=f"{series}, measured")
            ax.plot([r["x"] for r in pts], [r["model_seconds"] for r in pts], linestyle="--", label=f"{series}, model")
        ax.set_xlabel("|R| / |S|")
        ax.set_ylabel(f"join seconds, 4 emulated hosts at {args.rate}")
        ax.legend(fontsize=7)
    plot(args, "multiplicity", draw)


def all_to_all(args):
    """Thesis section 6.1 on 4 emulated hosts at 1 Gbit/s: every rank sends the
    same amount to every other in the three schedules (hpcdb netbench --all-to-all)."""
    launcher = emulated_launcher(args, 4, args.rate)
    per_peer = "256Mi" if not args.quick else "32Mi"
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(os.path.abspath(args.out), "all_to_all.json")
    for exchange in ["messages", "puts"]:
        out = path.replace(".json", f"_{exchange}.json")
        done = subprocess.run(launcher + ["--", args.hpcdb, "netbench", "--all-to-all", "--exchange", exchange,
                                          "--per-peer", per_peer, "--rounds", str(max(args.rounds, 3)),
                                          "--bandwidth", str(rate_gbit(args.rate)), "--json", out],
                              env=ENV, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"experiments.py: netbench --all-to-all failed:\n{done.stderr[-3000:]}")
        print(done.stdout, end="")
        print(f"written {out}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    experiments = {"phases": phases, "size": size, "ratio": ratio, "skew": skew, "shape": shape, "bandwidth": bandwidth,
                   "topologies": topologies, "multiplicity": multiplicity, "all-to-all": all_to_all}
    parser.add_argument("experiment", choices=sorted(experiments))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=1,
                        help="topologies, multiplicity, all-to-all: rounds over every variant, interleaved")
    parser.add_argument("--quick", action="store_true", help="an eighth of the sizes, for a fast look")
    parser.add_argument("--rate", default="1gbit",
                        help="topologies, multiplicity, all-to-all: each emulated host's link (tc rate: 1gbit, 100mbit, ...)")
    parser.add_argument("--port-buffer", default="256kb",
                        help="emulated hosts: the switch's queue per port (tc size; see scripts/emulated_cluster.sh)")
    parser.add_argument("--hpcdb", default="build/hpcdb")
    parser.add_argument("--out", default="bench/results")
    args = parser.parse_args()
    rate_gbit(args.rate)  # refuses a rate tc would not take, before any run
    experiments[args.experiment](args)


if __name__ == "__main__":
    main()
