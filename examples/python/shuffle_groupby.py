"""Shuffle a table so that every customer's rows are on one rank, then let
each rank group its own rows with Polars: a distributed group-by.

    mpirun -np 4 .venv/bin/python examples/python/shuffle_groupby.py

Each rank starts with rows of any customer; after hpcdb.shuffle a rank holds
all rows of the customers it owns, so its Polars group-by is complete for
them, and together the ranks' results are the whole answer.
"""
import polars as pl
import pyarrow as pa

import hpcdb


def main():
    rank, size = hpcdb.rank(), hpcdb.size()
    # This rank's share of the sales: 10,000 rows of customers 0..499.
    mine = pl.DataFrame({"customer": [(rank * 7919 + i * 31) % 500 for i in range(10_000)],
                         "amount": [float(i % 100) for i in range(10_000)]})

    owned = pl.from_arrow(hpcdb.shuffle(mine, on="customer"))
    totals = owned.group_by("customer").agg(pl.col("amount").sum().alias("total"), pl.len().alias("sales"))

    everything = hpcdb.gather(totals.to_arrow())
    if rank == 0:
        result = pl.from_arrow(everything).sort("customer")
        assert result["customer"].n_unique() == result.height, "a customer's rows were on two ranks"
        assert result["sales"].sum() == 10_000 * size
        print(f"{result.height} customers, {result['sales'].sum()} sales grouped on {size} ranks")
        print(result.head(3))
    return everything


if __name__ == "__main__":
    main()
