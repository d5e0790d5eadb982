"""hpcdb join on tables against DuckDB on the same files: every join kind on
1-4 ranks, every column type, nulls in keys and payloads, duplicates on both
sides, empty inputs, a side with fewer row groups than ranks, string and
composite keys with forced hash collisions, Zipf keys, CSV and Arrow IPC
inputs, and bad inputs that must end every rank with a message.

    .venv/bin/python tests/api/table_join_duckdb_test.py build/hpcdb [--ranks 1,2,3,4]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import duckdb
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import table_data  # noqa: E402

HOWS = ["inner", "left", "right", "full", "semi", "anti"]
SQL_JOIN = {"inner": "JOIN", "left": "LEFT JOIN", "right": "RIGHT JOIN", "full": "FULL OUTER JOIN"}


def mpirun(ranks):
    return ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(ranks)]


def run_hpcdb(hpcdb, ranks, args, timeout=300):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    start = time.monotonic()
    done = subprocess.run(mpirun(ranks) + [hpcdb] + args, capture_output=True, text=True, env=env, timeout=timeout)
    return done, time.monotonic() - start


def reader(path):
    if os.path.isdir(path):
        return f"read_parquet('{path}/*.parquet')"
    if path.endswith(".csv"):
        return f"read_csv('{path}', header=true)"
    if path.endswith(".arrow"):
        return "ipc_table"  # registered from the file by pyarrow (DuckDB reads no Arrow IPC files)
    return f"read_parquet('{path}')"


def result_names(left_cols, right_cols, how, suffixes=("_l", "_r")):
    """(side, source, name) of every result column, as hpcdb names them."""
    names = []
    right_set = set(right_cols) if how not in ("semi", "anti") else set()
    for c in left_cols:
        names.append(("l", c, c + suffixes[0] if c in right_set else c))
    if how not in ("semi", "anti"):
        left_set = set(left_cols)
        for c in right_cols:
            names.append(("r", c, c + suffixes[1] if c in left_set else c))
    return names


def expected_sql(left_src, right_src, left_cols, right_cols, on, how):
    cond = " AND ".join(f'l."{a}" = r."{b}"' for a, b in on)
    columns = ", ".join(f'{side}."{src}" AS "{name}"' for side, src, name in result_names(left_cols, right_cols, how))
    if how == "semi":
        return f"SELECT {columns} FROM {left_src} l WHERE EXISTS (SELECT 1 FROM {right_src} r WHERE {cond})"
    if how == "anti":
        return f"SELECT {columns} FROM {left_src} l WHERE NOT EXISTS (SELECT 1 FROM {right_src} r WHERE {cond})"
    return f"SELECT {columns} FROM {left_src} l {SQL_JOIN[how]} {right_src} r ON {cond}"


class Checker:
    def __init__(self, hpcdb, workdir):
        self.hpcdb = hpcdb
        self.workdir = workdir
        self.passed = 0
        self.failed = []
        self.con = duckdb.connect()

    def schema_of(self, path):
        return [d[0] for d in self.con.execute(f"DESCRIBE SELECT * FROM {reader(path)}").fetchall()]

    def join_case(self, name, ranks, left, right, on, how, extra=(), encodings=None):
        """`encodings`: columns and the encodings rank 0's file must store them in."""
        out = os.path.join(self.workdir, "out")
        shutil.rmtree(out, ignore_errors=True)
        on_text = ",".join(a if a == b else f"{a}={b}" for a, b in on)
        report = os.path.join(self.workdir, "report.json")
        args = ["join", "--left", left, "--right", right, "--on", on_text, "--how", how, "--output", out,
                "--progress", "off", "--json", report, *extra]
        done, seconds = run_hpcdb(self.hpcdb, ranks, args)
        label = f"{name} how={how} ranks={ranks}"
        if done.returncode != 0:
            self.fail(label, f"exit {done.returncode}: {done.stderr.strip()[-2000:]}")
            return
        files = sorted(os.listdir(out))
        if files != [f"part-{r:05d}.parquet" for r in range(ranks)]:
            self.fail(label, f"output files {files}")
            return
        want = expected_sql(reader(left), reader(right), self.schema_of(left), self.schema_of(right), on, how)
        got = f"SELECT * FROM read_parquet('{out}/*.parquet')"
        n_want = self.con.execute(f"SELECT count(*) FROM ({want})").fetchone()[0]
        n_got = self.con.execute(f"SELECT count(*) FROM ({got})").fetchone()[0]
        missing = self.con.execute(f"SELECT count(*) FROM (({want}) EXCEPT ALL ({got}))").fetchone()[0]
        extra_rows = self.con.execute(f"SELECT count(*) FROM (({got}) EXCEPT ALL ({want}))").fetchone()[0]
        names_got = [d[0] for d in self.con.execute(f"DESCRIBE {got}").fetchall()]
        names_want = [d[0] for d in self.con.execute(f"DESCRIBE {want}").fetchall()]
        if n_want != n_got or missing or extra_rows or names_got != names_want:
            self.fail(label, f"rows {n_got} vs DuckDB {n_want}, missing {missing}, extra {extra_rows}, "
                             f"columns {names_got} vs {names_want}")
            return
        if encodings:
            with open(report) as f:
                chosen = json.load(f)["output"]["encodings"]
            reported = {c: chosen.get(c) for c in encodings}
            # What rank 0's file holds: delta-encoded columns and no others.
            meta = pq.ParquetFile(os.path.join(out, "part-00000.parquet")).metadata
            names = meta.schema.to_arrow_schema().names
            in_file = {c: "DELTA_BINARY_PACKED" in meta.row_group(0).column(names.index(c)).encodings
                       for c in encodings}
            if reported != encodings or in_file != {c: e == "delta" for c, e in encodings.items()}:
                self.fail(label, f"encodings {reported} (delta in the file: {in_file}), wanted {encodings}")
                return
        self.ok(label, f"{n_got} rows")

    def error_case(self, name, ranks, args, expect):
        done, seconds = run_hpcdb(self.hpcdb, ranks, args, timeout=120)
        label = f"error: {name} ranks={ranks}"
        text = done.stderr + done.stdout
        if done.returncode == 0 or expect not in text or seconds > 60:
            self.fail(label, f"exit {done.returncode} after {seconds:.1f} s, wanted '{expect}' in: {text.strip()[-1500:]}")
            return
        self.ok(label, f"exit {done.returncode} in {seconds:.1f} s")

    def ok(self, label, detail):
        self.passed += 1
        print(f"PASS {label}: {detail}", flush=True)

    def fail(self, label, detail):
        self.failed.append(label)
        print(f"FAIL {label}: {detail}", flush=True)


def make_inputs(d):
    paths = {}
    left = table_data.make_table(300, 1, 60, "a")
    right = table_data.make_table(200, 2, 80, "b")
    paths["left"] = table_data.write_parquet_dir(left, os.path.join(d, "left"), files=2, row_group_size=37)
    # One row group only: fewer row groups than ranks.
    paths["right"] = table_data.write_parquet_file(right, os.path.join(d, "right.parquet"))
    paths["empty"] = table_data.write_parquet_file(right.slice(0, 0), os.path.join(d, "empty.parquet"))
    zl = table_data.make_table(2000, 3, 50, "a", zipf=1.3, null_share=0.02)
    zr = table_data.make_table(400, 4, 50, "b", zipf=1.1, null_share=0.02)
    paths["zipf_left"] = table_data.write_parquet_dir(zl, os.path.join(d, "zl"), files=3, row_group_size=100)
    paths["zipf_right"] = table_data.write_parquet_file(zr, os.path.join(d, "zr.parquet"), row_group_size=64)
    simple = ["k", "s", "i32", "a_f64"]
    paths["left_csv"] = table_data.write_csv(left.select(simple), os.path.join(d, "left.csv"))
    paths["left_ipc"] = table_data.write_ipc(left, os.path.join(d, "left.arrow"))
    with open(os.path.join(d, "bad.parquet"), "wb") as f:
        f.write(b"PAR1 this is not a parquet file at all PAR1")
    paths["corrupt"] = os.path.join(d, "bad.parquet")
    with open(os.path.join(d, "bad.csv"), "w") as f:
        f.write("k,s\n1,a\n2,b\n3\n4,d\n")
    paths["bad_csv"] = os.path.join(d, "bad.csv")
    return paths


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("hpcdb")
    parser.add_argument("--ranks", default="1,2,3,4")
    args = parser.parse_args()
    ranks_list = [int(r) for r in args.ranks.split(",")]
    with tempfile.TemporaryDirectory() as d:
        paths = make_inputs(d)
        check = Checker(os.path.abspath(args.hpcdb), d)
        check.con.register("ipc_table", feather.read_table(paths["left_ipc"]))
        partitioned, broadcast = ["--strategy", "partitioned"], ["--strategy", "broadcast"]
        for ranks in ranks_list:
            for how in HOWS:
                check.join_case("int key", ranks, paths["left"], paths["right"], [("k", "k")], how, partitioned)
                check.join_case("string key", ranks, paths["left"], paths["right"], [("s", "s")], how, partitioned)
                # The right side is the smaller: broadcast; swapped, the left one is.
                check.join_case("int key, broadcast", ranks, paths["left"], paths["right"], [("k", "k")], how, broadcast)
                check.join_case("string key, broadcast", ranks, paths["left"], paths["right"], [("s", "s")], how,
                                broadcast)
                check.join_case("int key, left side broadcast", ranks, paths["right"], paths["left"], [("k", "k")], how,
                                broadcast)
            for strategy in (partitioned, broadcast):
                name = strategy[1]
                check.join_case(f"composite key, 3-bit hashes, {name}", ranks, paths["left"], paths["right"],
                                [("k", "k"), ("s", "s")], "inner", ["--testing-hash-bits", "3", *strategy])
                check.join_case(f"string key, 2-bit hashes, {name}", ranks, paths["left"], paths["right"], [("s", "s")],
                                "full", ["--testing-hash-bits", "2", *strategy])
                check.join_case(f"zipf, {name}", ranks, paths["zipf_left"], paths["zipf_right"], [("k", "k")], "inner",
                                strategy)
                # Written in slices of a few rows: every slice a batch of its own, ranks with fewer slices than others.
                check.join_case(f"int key, 7-row slices, {name}", ranks, paths["left"], paths["right"], [("k", "k")],
                                "full", ["--testing-slice-rows", "7", *strategy])
                check.join_case(f"empty right, {name}", ranks, paths["left"], paths["empty"], [("k", "k")], "left",
                                strategy)
                check.join_case(f"empty left, {name}", ranks, paths["empty"], paths["left"], [("k", "k")], "full",
                                strategy)
            check.join_case("zipf sort-merge", ranks, paths["zipf_left"], paths["zipf_right"], [("k", "k")], "left",
                            ["--algorithm", "sort-merge", *partitioned])
            check.join_case("zipf, 100-row slices", ranks, paths["zipf_left"], paths["zipf_right"], [("k", "k")], "inner",
                            ["--testing-slice-rows", "100"])
            check.join_case("zipf anti, broadcast", ranks, paths["zipf_left"], paths["zipf_right"], [("k", "k")], "anti",
                            broadcast)
        for ranks in ranks_list[:2]:
            # The probe side's rows in order: its ascending column delta-encoded
            # (strings keep Arrow's default); what DuckDB reads back equals its
            # own join.
            check.join_case("encodings chosen", ranks, paths["left"], paths["right"], [("k", "k")], "inner",
                            ["--strategy", "broadcast"], encodings={"a_seq": "delta", "a_ls": "default"})
            check.join_case("csv left", ranks, paths["left_csv"], paths["right"], [("k", "k")], "inner")
            check.join_case("ipc left", ranks, paths["left_ipc"], paths["right"], [("s", "s")], "anti")
        out = os.path.join(d, "err-out")
        for ranks in [r for r in ranks_list if r in (1, 3)]:
            base = ["join", "--output", out, "--progress", "off"]
            check.error_case("missing column", ranks, base + ["--left", paths["left"], "--right", paths["right"], "--on", "k=nope"],
                             "has no column 'nope'")
            check.error_case("mismatched key types", ranks, base + ["--left", paths["left"], "--right", paths["right"], "--on", "k=s"],
                             "differ in type")
            check.error_case("corrupt parquet", ranks, base + ["--left", paths["corrupt"], "--right", paths["right"], "--on", "k"],
                             "bad.parquet")
            check.error_case("csv wrong field count", ranks, base + ["--left", paths["bad_csv"], "--right", paths["right"], "--on", "k"],
                             "bad.csv")
            check.error_case("missing file", ranks, base + ["--left", os.path.join(d, "nothing.parquet"), "--right", paths["right"], "--on", "k"],
                             "no such file")
        os.makedirs(out, exist_ok=True)
        for ranks in [r for r in ranks_list if r == 2]:
            check.error_case("existing output", ranks, ["join", "--output", out, "--left", paths["left"], "--right", paths["right"], "--on", "k"],
                             "--overwrite")
        print(f"{check.passed} passed, {len(check.failed)} failed")
        return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
