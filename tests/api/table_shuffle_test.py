"""hpcdb shuffle on tables: the rows that come out are the rows that went in
(as a multiset, every column and null compared by DuckDB), every key's rows
are on one rank, rows with a null key on rank 0; on 1-4 ranks, string and
composite keys, Zipf keys, and bad inputs.

    .venv/bin/python tests/api/table_shuffle_test.py build/hpcdb [--ranks 1,2,3,4]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import duckdb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import table_data  # noqa: E402


def run(hpcdb, ranks, args):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    start = time.monotonic()
    done = subprocess.run(["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(ranks), hpcdb] + args,
                          capture_output=True, text=True, env=env, timeout=300)
    return done, time.monotonic() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("hpcdb")
    parser.add_argument("--ranks", default="1,2,3,4")
    args = parser.parse_args()
    hpcdb = os.path.abspath(args.hpcdb)
    passed, failed = 0, []

    def verdict(label, problem, detail=""):
        nonlocal passed
        if problem:
            failed.append(label)
            print(f"FAIL {label}: {problem}", flush=True)
        else:
            passed += 1
            print(f"PASS {label}: {detail}", flush=True)

    with tempfile.TemporaryDirectory() as d:
        table = table_data.make_table(1500, 7, 90, "a", zipf=1.2)
        source = table_data.write_parquet_dir(table, os.path.join(d, "in"), files=3, row_group_size=101)
        con = duckdb.connect()
        for ranks in [int(r) for r in args.ranks.split(",")]:
            for keys in (["k"], ["s"], ["k", "s"]):
                out = os.path.join(d, "out")
                shutil.rmtree(out, ignore_errors=True)
                label = f"shuffle on {','.join(keys)} ranks={ranks}"
                done, _ = run(hpcdb, ranks, ["shuffle", "--input", source, "--on", ",".join(keys), "--output", out,
                                             "--progress", "off"])
                if done.returncode != 0:
                    verdict(label, f"exit {done.returncode}: {done.stderr[-1500:]}")
                    continue
                src = f"read_parquet('{source}/*.parquet')"
                got = f"read_parquet('{out}/*.parquet', filename=true)"
                cols = ", ".join(f'"{c}"' for c in table.column_names)
                missing = con.execute(f"SELECT count(*) FROM (SELECT {cols} FROM {src} EXCEPT ALL SELECT {cols} FROM {got})").fetchone()[0]
                extra = con.execute(f"SELECT count(*) FROM (SELECT {cols} FROM {got} EXCEPT ALL SELECT {cols} FROM {src})").fetchone()[0]
                key = ", ".join(keys)
                split = con.execute(f"SELECT count(*) FROM (SELECT {key} FROM {got} GROUP BY {key} "
                                    f"HAVING count(DISTINCT filename) > 1)").fetchone()[0]
                nulls_elsewhere = con.execute(
                    f"SELECT count(*) FROM {got} WHERE ({' OR '.join(k + ' IS NULL' for k in keys)}) "
                    f"AND NOT filename LIKE '%part-00000.parquet'").fetchone()[0]
                problem = ""
                if missing or extra:
                    problem = f"rows differ from the input: {missing} missing, {extra} extra"
                elif split:
                    problem = f"{split} keys on more than one rank"
                elif nulls_elsewhere:
                    problem = f"{nulls_elsewhere} rows with a null key not on rank 0"
                verdict(label, problem, f"{table.num_rows} rows")
            if ranks in (1, 3):
                done, seconds = run(hpcdb, ranks, ["shuffle", "--input", source, "--on", "nope", "--progress", "off"])
                ok = done.returncode != 0 and "no column 'nope'" in done.stderr + done.stdout and seconds < 60
                verdict(f"error: missing key column ranks={ranks}", "" if ok else f"exit {done.returncode}: {done.stderr[-800:]}",
                        f"exit {done.returncode} in {seconds:.1f} s")
                done, _ = run(hpcdb, ranks, ["shuffle", "--input", source, "--on", "k", "--tuples", "1M"])
                ok = done.returncode == 2 and "--tuples" in done.stderr + done.stdout
                verdict(f"error: generated-row option with --input ranks={ranks}", "" if ok else done.stderr[-800:])
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
