"""hpcdb.join on in-memory data of every kind, against DuckDB on the whole tables."""
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import hpcdb
from conftest import check_at_root, everywhere, share_of

EXPECTED = {
    "inner": "SELECT l.*, r.* FROM l JOIN r ON l.id = r.id",
    "left": "SELECT l.*, r.* FROM l LEFT JOIN r ON l.id = r.id",
    "right": "SELECT l.*, r.* FROM l RIGHT JOIN r ON l.id = r.id",
    "full": "SELECT l.*, r.* FROM l FULL JOIN r ON l.id = r.id",
    "semi": "SELECT l.* FROM l WHERE EXISTS (SELECT 1 FROM r WHERE r.id = l.id)",
    "anti": "SELECT l.* FROM l WHERE NOT EXISTS (SELECT 1 FROM r WHERE r.id = l.id)",
}


@pytest.mark.parametrize("plan", [("partitioned", "radix"), ("partitioned", "sort-merge"), ("broadcast", "auto")])
@pytest.mark.parametrize("how", list(EXPECTED))
def test_every_kind_of_join_equals_duckdb(tables, how, plan):
    left, right = tables
    strategy, algorithm = plan
    result = hpcdb.join(share_of(left), share_of(right), on="id", how=how, algorithm=algorithm, strategy=strategy)
    expected_columns = 3 if how in ("semi", "anti") else 6
    assert result.num_columns == expected_columns
    if how not in ("semi", "anti"):
        assert result.column_names == ["id_l", "name_l", "qty", "id_r", "name_r", "day"]
    check_at_root(result, EXPECTED[how], l=left, r=right)


def test_polars_left_and_pyarrow_right(tables):
    left, right = tables
    result = hpcdb.join(pl.from_arrow(share_of(left)), share_of(right), on="id")
    check_at_root(result, EXPECTED["inner"], l=left, r=right)
    assert pl.from_arrow(result).height == result.num_rows  # the result goes into Polars as it is


def test_pandas_and_duckdb_inputs(tables):
    import duckdb
    left, right = tables
    pandas_left = share_of(left).to_pandas(types_mapper=pd.ArrowDtype)  # nullable integers stay integers
    duckdb_right = duckdb.connect().from_arrow(share_of(right))
    result = hpcdb.join(pandas_left, duckdb_right, on="id", how="left")
    check_at_root(result, EXPECTED["left"], l=left, r=right)


@pytest.mark.parametrize("strategy", ["partitioned", "broadcast"])
def test_string_and_composite_keys_with_forced_hash_collisions(strategy):
    whole_left = pa.table({"a": [f"k{i % 40}" for i in range(300)], "b": [i % 3 for i in range(300)],
                           "v": list(range(300))})
    whole_right = pa.table({"a": [f"k{i % 50}" for i in range(120)], "b": [i % 2 for i in range(120)],
                            "w": list(range(120))})
    for bits in (64, 2):  # two bits: almost every pair of keys collides, and must still not match
        result, report = hpcdb.join(share_of(whole_left), share_of(whole_right), on=["a", "b"], stats=True,
                                    testing_hash_bits=bits, strategy=strategy)
        assert report["plan"]["key_encoding"] == "hashed"
        if bits == 2:
            assert report["hash_collisions"] > 0
        check_at_root(result, "SELECT l.*, r.* FROM l JOIN r ON l.a = r.a AND l.b = r.b", l=whole_left, r=whole_right)


def test_left_on_right_on_columns_and_suffixes(tables):
    left, right = tables
    renamed = right.rename_columns(["rid", "name", "day"])
    result = hpcdb.join(share_of(left), share_of(renamed), left_on="id", right_on="rid", suffixes=("_a", "_b"),
                        columns=["id", "name_a", "name_b", "day"])
    assert result.column_names == ["id", "name_a", "name_b", "day"]
    check_at_root(result, "SELECT l.id, l.name, r.name, r.day FROM l JOIN r ON l.id = r.rid", l=left, r=renamed)


def test_empty_shares_and_an_empty_side(tables):
    left, right = tables
    mine = left if hpcdb.rank() == 0 else left.slice(0, 0)  # every row on rank 0
    result = hpcdb.join(mine, share_of(right), on="id")
    check_at_root(result, EXPECTED["inner"], l=left, r=right)
    nothing = hpcdb.join(share_of(left), right.slice(0, 0), on="id", how="left")
    check_at_root(nothing, EXPECTED["left"], l=left, r=right.slice(0, 0))


def test_report_holds_plan_rows_and_phases(tables):
    left, right = tables
    result, report = hpcdb.join(share_of(left), share_of(right), on="id", stats=True, strategy="partitioned")
    assert report["ranks"] == hpcdb.size()
    assert report["plan"]["strategy"] == "partitioned"
    assert report["plan"]["algorithm"] == "radix"
    assert report["left_rows"] == left.num_rows and report["right_rows"] == right.num_rows
    assert report["keyless_rows"] == 2  # a null key on each side
    assert [p["name"] for p in report["phases"]][:2] == ["read", "plan"]
    assert report["seconds"] > 0
    assert all(0 <= p["seconds"] <= report["seconds"] + 1e-6 for p in report["phases"]), report["phases"]
    whole = hpcdb.gather(result)  # the report counts every rank's rows
    everywhere("" if hpcdb.rank() != 0 or whole.num_rows == report["result_rows"] == report["pairs"] else
               f"gathered {whole.num_rows} rows; the report says {report['result_rows']} rows, {report['pairs']} pairs")


def test_broadcast_report_names_the_side_sent(tables):
    left, right = tables
    result, report = hpcdb.join(share_of(left), share_of(right), on="id", stats=True, strategy="broadcast")
    assert report["plan"]["strategy"] == "broadcast"
    assert [p["name"] for p in report["phases"]][:3] == ["read", "broadcast", "join"]
    assert report["join_bytes_sent"] == 0 and report["materialize_bytes_sent"] == 0
    assert (report["broadcast_bytes_sent"] > 0) == (hpcdb.size() > 1)
    check_at_root(result, EXPECTED["inner"], l=left, r=right)


def declared_not_null(table, columns):
    return table.cast(pa.schema([f.with_nullable(f.name not in columns) for f in table.schema]))


@pytest.mark.parametrize("strategy", ["partitioned", "broadcast"])
def test_not_null_columns_stay_so_unless_the_join_fills_them(strategy):
    left = declared_not_null(pa.table({"id": pa.array(range(20), pa.int64()), "a": pa.array(range(20), pa.int32())}),
                             ["id", "a"])
    right = declared_not_null(pa.table({"id": pa.array(range(5, 30), pa.int64()), "b": [str(i) for i in range(25)]}),
                              ["id", "b"])
    failures = []
    for how, nullable in [("inner", []), ("left", ["id_r", "b"]), ("right", ["id_l", "a"]),
                          ("full", ["id_l", "a", "id_r", "b"]), ("semi", []), ("anti", [])]:
        result = hpcdb.join(share_of(left), share_of(right), on="id", how=how, strategy=strategy)
        got = sorted(f.name for f in result.schema if f.nullable)
        if got != sorted(nullable):
            failures.append(f"{how}: nullable {got}, expected {sorted(nullable)}")
    # A column that one rank declares nullable is nullable on every rank.
    mine = share_of(left) if hpcdb.rank() else share_of(left).cast(pa.schema([("id", pa.int64(), False), ("a", pa.int32())]))
    result = hpcdb.join(mine, share_of(right), on="id", strategy=strategy)
    if [f.nullable for f in result.schema] != [False, True, False, False]:
        failures.append(f"rank {hpcdb.rank()}: one rank's nullable column gives {result.schema}")
    everywhere("; ".join(failures))
