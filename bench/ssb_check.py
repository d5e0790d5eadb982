#!/usr/bin/env python3
"""Checks hpcdb's SSB answers against DuckDB on the same data.

hpcdb ssb --answers FILE writes every query it ran, with the query engine
that ran it, its SQL and its rows, and, when point updates ran beside the
queries, the update log of each table fragment and how much of it each query
saw. This loads the CSV files of 'hpcdb generate --ssb' (same --scale and
--seed) into DuckDB, runs each query's SQL on the tables as that query saw
them (the base data with the first N updates of each fragment's log applied,
N the count the query's scan of that fragment had taken) and compares: the
same rows (as multisets), and hpcdb's rows in an order the query's ORDER BY
allows. It counts the answers per file (deployment) and query engine, and
fails unless every engine of every file has at least --expect-per-engine
(exactly, with --exact). Exit 0 when everything matches, 1 otherwise (the
differences printed).

  python bench/ssb_check.py --data DIR --answers a.json [b.json ...] [--expect-per-engine 13 --exact]
"""
import argparse
import json
import sys
from collections import Counter, defaultdict

import duckdb

TABLES = ["lineorder", "customer", "supplier", "part", "date"]
# Primary keys as hpcdb's key-value backend forms them.
KEY_SQL = {"customer": "c_custkey", "supplier": "s_suppkey", "part": "p_partkey", "date": "d_datekey",
           "lineorder": "lo_orderkey * 8 + lo_linenumber"}


def load(data_dir):
    con = duckdb.connect()
    for t in TABLES:
        con.execute(f"create table \"{t}\" as select * from read_csv('{data_dir}/{t}.csv', header=true)")
    return con


def normal(row):
    return tuple(int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and v == int(v) else v for v in row)


def order_keys(rows, order_by):
    return [tuple(r[i] for i, _ in order_by) for r in rows]


def sorted_as(rows, order_by):
    """Whether rows follow ORDER BY (ties in any order)."""
    for a, b in zip(rows, rows[1:]):
        for index, descending in order_by:
            x, y = a[index], b[index]
            if x == y:
                continue
            if (x > y) != bool(descending):
                return False
            break
    return True


def check(con, answer):
    expected = [normal(r) for r in con.execute(answer["sql"]).fetchall()]
    got = [normal(r) for r in answer["rows"]]
    problems = []
    if Counter(expected) != Counter(got):
        missing = list((Counter(expected) - Counter(got)).elements())[:5]
        extra = list((Counter(got) - Counter(expected)).elements())[:5]
        problems.append(f"rows differ: {len(got)} rows, DuckDB {len(expected)}; missing {missing}; extra {extra}")
    order_by = answer.get("order_by", [])
    if order_by and not sorted_as(got, order_by):
        problems.append("rows are not in ORDER BY order")
    if order_by and order_keys(got, order_by) != order_keys(expected, order_by):
        problems.append("ORDER BY keys come in another order than DuckDB's")
    return problems


class UpdatedTables:
    """The tables as a query saw them: each updated table rebuilt from its
    base copy with a prefix of every fragment's update log applied."""

    def __init__(self, con, updates):
        self.con = con
        self.updates = updates  # table -> [fragment log: [[key, column, value], ...]]
        self.state = {}         # table -> applied prefix length per fragment
        for table in updates:
            con.execute(f"create table \"{table}_base\" as select * from \"{table}\"")

    def show(self, seen):
        for table, logs in self.updates.items():
            want = [int(seen.get(f"{table}/{f}", 0)) for f in range(len(logs))]
            for f, n in enumerate(want):
                if n > len(logs[f]):
                    raise SystemExit(f"ssb_check: an answer saw {n} updates of {table} fragment {f}, "
                                     f"whose log has {len(logs[f])}")
            have = self.state.get(table)
            if have is None or any(w < h for w, h in zip(want, have)):
                self.con.execute(f"create or replace table \"{table}\" as select * from \"{table}_base\"")
                have = [0] * len(logs)
            for f, log in enumerate(logs):
                self.apply(table, log[have[f]:want[f]])
            self.state[table] = want

    def apply(self, table, updates):
        """One UPDATE per column for a stretch of the log: each key's last value wins."""
        by_column = defaultdict(dict)
        for key, column, value in updates:
            by_column[column][key] = value
        for column, values in by_column.items():
            kind = self.con.execute("select data_type from information_schema.columns where table_name = ? and "
                                    "column_name = ?", [table, column]).fetchone()[0]
            self.con.execute(f"create or replace temp table pending_updates (k bigint, v {kind})")
            self.con.executemany("insert into pending_updates values (?, ?)", [[k, v] for k, v in values.items()])
            self.con.execute(f"update \"{table}\" set {column} = pending_updates.v from pending_updates "
                             f"where {KEY_SQL[table]} = pending_updates.k")


def read_answers(path):
    with open(path) as f:
        document = json.load(f)
    config = document.get("config", {})
    return config, document["answers"], document.get("updates", {})


def check_file(con, path, counts, failures):
    config, answers, updates = read_answers(path)
    tables = UpdatedTables(con, updates) if updates else None
    deployment = config.get("deployment", "?")
    for engine in range(int(config.get("query_engines", 0))):
        counts[(path, deployment, engine)] += 0
    # Answers that saw fewer updates first: each table's prefix only grows.
    if tables:
        answers = sorted(answers, key=lambda a: sorted(a.get("seen", {}).items()))
    for answer in answers:
        if tables:
            tables.show(answer.get("seen", {}))
        problems = check(con, answer)
        counts[(path, deployment, answer.get("engine", 0))] += 1
        if problems:
            failures[(path, deployment, answer.get("engine", 0))] += 1
            print(f"MISMATCH {answer['query']} (engine {answer.get('engine', 0)}, {path}): {answer['sql']}")
            if answer.get("seen"):
                print(f"    saw updates {answer['seen']}")
            for p in problems:
                print(f"    {p}")
    if tables:
        for table, logs in updates.items():
            con.execute(f"create or replace table \"{table}\" as select * from \"{table}_base\"")
            con.execute(f"drop table \"{table}_base\"")
            print(f"ssb_check: {path}: {sum(len(log) for log in logs)} updates of {table} in the log, "
                  f"{len(answers)} answers checked against the prefixes they saw")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, help="directory of the SSB CSV files")
    parser.add_argument("--answers", required=True, nargs="+", help="answers files of hpcdb ssb --answers")
    parser.add_argument("--expect-per-engine", type=int, default=1,
                        help="fail unless every query engine of every file has at least this many answers")
    parser.add_argument("--exact", action="store_true", help="... exactly this many (the standard queries)")
    args = parser.parse_args()
    con = load(args.data)
    counts = Counter()
    failures = Counter()
    for path in args.answers:
        check_file(con, path, counts, failures)
    short = []
    print(f"{'answers file':<48} {'deployment':>10} {'engine':>6} {'answers':>8} {'mismatched':>10}")
    for (path, deployment, engine), n in sorted(counts.items()):
        print(f"{path[-48:]:<48} {deployment:>10} {engine:>6} {n:>8} {failures[(path, deployment, engine)]:>10}")
        if n < args.expect_per_engine or (args.exact and n != args.expect_per_engine):
            short.append(f"{path} engine {engine}: {n} answers, expected {'exactly' if args.exact else 'at least'} "
                         f"{args.expect_per_engine}")
    total = sum(counts.values())
    failed = sum(failures.values())
    print(f"ssb_check: {total} answers checked against DuckDB, {failed} mismatched")
    for s in short:
        print(f"ssb_check: {s}")
    return 1 if failed or short else 0


if __name__ == "__main__":
    sys.exit(main())
