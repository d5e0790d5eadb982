"""Reading, writing, gathering and shuffling tables through the package."""
import os

import pyarrow as pa
import pyarrow.parquet as pq

import hpcdb
from conftest import check_at_root, everywhere, share_of, sorted_rows


def test_parquet_round_trip_and_projection(shared_directory):
    whole = pa.table({"k": list(range(100)), "s": [f"v{i}" for i in range(100)], "x": [i * 0.5 for i in range(100)]})
    source = os.path.join(shared_directory, "in.parquet")
    if hpcdb.rank() == 0:
        pq.write_table(whole, source, row_group_size=7)
    everywhere("")  # written before anyone reads
    share = hpcdb.read_parquet(source, columns=["k", "x"])
    assert share.column_names == ["k", "x"]
    check_at_root(share, "SELECT k, x FROM w", w=whole)

    written = hpcdb.write_parquet(share, os.path.join(shared_directory, "out"))
    assert written["file"].endswith(f"part-{hpcdb.rank():05d}.parquet")
    everywhere("")
    failure = ""
    if hpcdb.rank() == 0:
        back = pq.read_table(os.path.join(shared_directory, "out"))
        if sorted_rows(back) != sorted_rows(whole.select(["k", "x"])):
            failure = "the written directory does not hold the table"
    everywhere(failure)


def test_written_row_groups_hold_a_million_rows_whatever_the_batches(shared_directory):
    rows = (1 << 20) * 2 + 12345
    batches = []
    for start, stop in [(0, 5), (5, 700000), (700000, 700001), (700001, rows)]:  # batches across group borders
        batches.append(pa.record_batch({"k": pa.array(range(start, stop), pa.int64())}))
    share = pa.Table.from_batches(batches)
    hpcdb.write_parquet(share, os.path.join(shared_directory, "out"))
    everywhere("")
    failure = ""
    if hpcdb.rank() == 0:
        for r in range(hpcdb.size()):
            path = os.path.join(shared_directory, "out", f"part-{r:05d}.parquet")
            meta = pq.ParquetFile(path).metadata
            groups = [meta.row_group(g).num_rows for g in range(meta.num_row_groups)]
            column = pq.read_table(path)["k"]
            if groups != [1 << 20, 1 << 20, 12345] or column.to_pylist() != list(range(rows)):
                failure = f"{path}: row groups {groups}, {len(column)} rows"
    everywhere(failure)


def test_shares_declaring_not_null_on_some_ranks_only(shared_directory):
    share = pa.table({"k": pa.array([hpcdb.rank()], pa.int64())})
    if hpcdb.rank() == 0:
        share = share.cast(pa.schema([pa.field("k", pa.int64(), nullable=False)]))
    whole = hpcdb.gather(share)  # every rank's share under one schema
    target = os.path.join(shared_directory, "out")
    hpcdb.write_parquet(share, target)
    back = hpcdb.read_parquet(target)  # refuses files whose schemas differ
    nullable = hpcdb.size() > 1
    failure = ""
    if back.schema.field("k").nullable != nullable:
        failure = f"rank {hpcdb.rank()} read back {back.schema}"
    if hpcdb.rank() == 0 and (whole.num_rows != hpcdb.size() or whole.schema.field("k").nullable != nullable):
        failure = f"gathered {whole.num_rows} rows of {whole.schema}"
    everywhere(failure)


def test_write_refuses_an_existing_directory_on_every_rank(shared_directory):
    table = pa.table({"k": [hpcdb.rank()]})
    target = os.path.join(shared_directory, "out")
    hpcdb.write_parquet(table, target)
    try:
        hpcdb.write_parquet(table, target)
        raised = None
    except hpcdb.UsageError as e:
        raised = str(e)
    assert raised is not None and "exists" in raised
    hpcdb.write_parquet(table, target, overwrite=True)


def test_read_csv_with_given_types(shared_directory):
    path = os.path.join(shared_directory, "t.csv")
    if hpcdb.rank() == 0:
        with open(path, "w") as f:
            f.write("id,day,price\n" + "".join(f"{i},2024-01-{1 + i % 28:02d},{i}.25\n" for i in range(50)))
    everywhere("")
    share = hpcdb.read_csv(path, types={"price": "decimal128(10,2)"})
    assert share.schema.field("day").type == pa.date32()
    assert share.schema.field("price").type == pa.decimal128(10, 2)
    whole = hpcdb.gather(share)
    if hpcdb.rank() == 0:
        assert whole.num_rows == 50
    else:
        assert whole is None


def test_gather_keeps_rank_order():
    whole = hpcdb.gather(pa.table({"rank": [hpcdb.rank()] * (hpcdb.rank() + 1)}), root=hpcdb.size() - 1)
    if hpcdb.rank() == hpcdb.size() - 1:
        assert whole["rank"].to_pylist() == [r for r in range(hpcdb.size()) for _ in range(r + 1)]


def test_shuffle_puts_every_key_on_one_rank():
    whole = pa.table({"k": [i % 17 for i in range(500)], "s": [f"s{i % 5}" for i in range(500)],
                      "v": list(range(500))})
    mine, report = hpcdb.shuffle(share_of(whole), on=["k", "s"], stats=True)
    assert report["rows"] == 500
    tagged = mine.append_column("rank", pa.array([hpcdb.rank()] * mine.num_rows, pa.int32()))
    check_at_root(tagged.drop_columns(["rank"]), "SELECT * FROM w", w=whole)
    everyone = hpcdb.gather(tagged)
    failure = ""
    if hpcdb.rank() == 0:
        owners = {}
        for row in everyone.to_pylist():
            owners.setdefault((row["k"], row["s"]), set()).add(row["rank"])
        spread = [key for key, ranks in owners.items() if len(ranks) > 1]
        if spread:
            failure = f"keys on more than one rank: {spread[:3]}"
    everywhere(failure)
