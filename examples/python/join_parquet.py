"""Join two Parquet datasets on every rank of an MPI job and write the result.

    mpirun -np 4 .venv/bin/python examples/python/join_parquet.py \\
        --orders data/orders --lineitem data/lineitem --output result

Without --orders and --lineitem it first writes two small datasets of its
own into --data (rank 0). Every rank reads its share of the row groups,
the join sends each key's rows to one rank, and every rank writes its part
of the result (result/part-00000.parquet, ...).
"""
import argparse
import os

import pyarrow as pa
import pyarrow.parquet as pq

import hpcdb


def write_sample(directory, rows=100_000):
    """Orders and their line items, as Parquet datasets of several files."""
    orders = pa.table({"o_orderkey": pa.array(range(rows), pa.int64()),
                       "o_custkey": pa.array([k % 997 for k in range(rows)], pa.int64()),
                       "o_orderstatus": pa.array(["OFP"[k % 3] for k in range(rows)])})
    items = 4 * rows
    lineitem = pa.table({"l_orderkey": pa.array([k // 4 for k in range(items)], pa.int64()),
                         "l_quantity": pa.array([float(1 + k % 50) for k in range(items)]),
                         "l_shipmode": pa.array([("AIR", "RAIL", "SHIP", "TRUCK")[k % 4] for k in range(items)])})
    for name, table in (("orders", orders), ("lineitem", lineitem)):
        os.makedirs(os.path.join(directory, name), exist_ok=True)
        half = table.num_rows // 2
        pq.write_table(table.slice(0, half), os.path.join(directory, name, "part-0.parquet"), row_group_size=10_000)
        pq.write_table(table.slice(half), os.path.join(directory, name, "part-1.parquet"), row_group_size=10_000)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", help="orders: a Parquet file, directory or glob")
    parser.add_argument("--lineitem", help="lineitem: a Parquet file, directory or glob")
    parser.add_argument("--data", default="example-data", help="where the sample datasets go (without --orders)")
    parser.add_argument("--output", default="example-result", help="the result's directory")
    args = parser.parse_args()

    if not args.orders:
        if hpcdb.rank() == 0:
            write_sample(args.data)
        hpcdb.gather(pa.table({"ready": [True]}))  # every rank waits for the files
        args.orders, args.lineitem = os.path.join(args.data, "orders"), os.path.join(args.data, "lineitem")

    orders = hpcdb.read_parquet(args.orders, columns=["o_orderkey", "o_custkey", "o_orderstatus"])
    lineitem = hpcdb.read_parquet(args.lineitem, columns=["l_orderkey", "l_quantity", "l_shipmode"])
    rows, report = hpcdb.join(lineitem, orders, left_on="l_orderkey", right_on="o_orderkey", stats=True)
    hpcdb.write_parquet(rows, args.output, overwrite=True)
    if hpcdb.rank() == 0:
        phases = ", ".join(f"{p['name']} {p['seconds']:.3f} s" for p in report["phases"])
        print(f"{report['result_rows']} rows on {report['ranks']} ranks in {args.output}/ ({phases})")


if __name__ == "__main__":
    main()
