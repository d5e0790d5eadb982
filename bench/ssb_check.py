#!/usr/bin/env python3
"""Checks hpcdb's SSB answers against DuckDB on the same data.

hpcdb ssb --answers FILE writes every query it ran with its SQL and rows;
this loads the CSV files of 'hpcdb generate --ssb' (same --scale and --seed)
into DuckDB, runs each query's SQL and compares: the same rows (as
multisets), and hpcdb's rows in an order the query's ORDER BY allows.
Exit 0 when every answer matches, 1 otherwise (the differences printed).

  bench/ssb_check.py --data DIR --answers answers.json [more.json ...]
"""
import argparse
import json
import sys
from collections import Counter

import duckdb

TABLES = ["lineorder", "customer", "supplier", "part", "date"]


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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, help="directory of the SSB CSV files")
    parser.add_argument("--answers", required=True, nargs="+", help="answers files of hpcdb ssb --answers")
    parser.add_argument("--expect", type=int, default=0, help="fail unless at least this many answers were checked")
    args = parser.parse_args()
    con = load(args.data)
    checked = failed = 0
    for path in args.answers:
        with open(path) as f:
            answers = json.load(f)
        for answer in answers:
            problems = check(con, answer)
            checked += 1
            if problems:
                failed += 1
                print(f"MISMATCH {answer['query']}: {answer['sql']}")
                for p in problems:
                    print(f"    {p}")
    print(f"ssb_check: {checked} answers checked against DuckDB, {failed} mismatched")
    if checked < args.expect:
        print(f"ssb_check: expected at least {args.expect} answers")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
