"""Test tables for the table join and shuffle tests: every column type the
engine handles, nulls in keys and payloads, duplicate keys on both sides,
Zipf-distributed keys, written as Parquet (several files and row groups),
CSV and Arrow IPC."""
import datetime
import decimal
import os

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.feather as feather
import pyarrow.parquet as pq


def _nullify(values, rng, share):
    return [None if rng.random() < share else v for v in values]


def make_table(rows, seed, key_range, side, zipf=0.0, null_share=0.1):
    """A table of `rows` rows whose key k lies in [0, key_range) (Zipf when zipf > 1)."""
    rng = np.random.default_rng(seed)
    if zipf > 1.0:
        keys = (rng.zipf(zipf, rows) - 1) % max(key_range, 1)
    else:
        keys = rng.integers(0, max(key_range, 1), rows)
    keys = [int(k) for k in keys]
    strings = [f"key-{k % 97}-{'x' * (k % 5)}" for k in keys]
    base = datetime.date(2020, 1, 1)
    columns = {
        "k": pa.array(_nullify(keys, rng, null_share), pa.int64()),
        "s": pa.array(_nullify(strings, rng, null_share), pa.string()),
        "i8": pa.array(_nullify([int(x) for x in rng.integers(-128, 128, rows)], rng, null_share), pa.int8()),
        "i16": pa.array(_nullify([int(x) for x in rng.integers(-30000, 30000, rows)], rng, null_share), pa.int16()),
        "i32": pa.array(_nullify([int(x) for x in rng.integers(-2**31, 2**31 - 1, rows)], rng, null_share), pa.int32()),
        "u8": pa.array(_nullify([int(x) for x in rng.integers(0, 256, rows)], rng, null_share), pa.uint8()),
        "u16": pa.array(_nullify([int(x) for x in rng.integers(0, 65536, rows)], rng, null_share), pa.uint16()),
        "u32": pa.array(_nullify([int(x) for x in rng.integers(0, 2**32, rows)], rng, null_share), pa.uint32()),
        "u64": pa.array(_nullify([int(x) * 3 for x in rng.integers(0, 2**62, rows)], rng, null_share), pa.uint64()),
        "f32": pa.array(_nullify([float(np.float32(x)) for x in rng.normal(0, 100, rows)], rng, null_share), pa.float32()),
        "f64": pa.array(_nullify([float(x) for x in rng.normal(0, 1e6, rows)], rng, null_share), pa.float64()),
        "b": pa.array(_nullify([bool(x) for x in rng.integers(0, 2, rows)], rng, null_share), pa.bool_()),
        "d": pa.array(_nullify([base + datetime.timedelta(days=int(x)) for x in rng.integers(0, 3000, rows)], rng, null_share), pa.date32()),
        "ts": pa.array(_nullify([int(x) for x in rng.integers(0, 2**40, rows)], rng, null_share), pa.timestamp("us")),
        "dec": pa.array(_nullify([decimal.Decimal(int(x)).scaleb(-2) for x in rng.integers(-10**12, 10**12, rows)], rng, null_share),
                        pa.decimal128(15, 2)),
        "ls": pa.array(_nullify([f"{side}-{i}" for i in range(rows)], rng, null_share), pa.large_string()),
        # Ascending, as row numbers and sorted keys are: the Parquet writer
        # stores such a column delta-encoded (parquet_encodings.hpp).
        "seq": pa.array(_nullify([1000 + 3 * i for i in range(rows)], rng, null_share), pa.int64()),
    }
    # The side in some names, so that both tables share some names and not others.
    renamed = {}
    for name, column in columns.items():
        renamed[name if name in ("k", "s", "i32", "dec") else f"{side}_{name}"] = column
    return pa.table(renamed)


def write_parquet_dir(table, directory, files=2, row_group_size=37):
    os.makedirs(directory, exist_ok=True)
    step = max(1, (table.num_rows + files - 1) // files)
    for f in range(files):
        part = table.slice(f * step, step)
        pq.write_table(part, os.path.join(directory, f"part-{f}.parquet"), row_group_size=row_group_size)
    return directory


def write_parquet_file(table, path, row_group_size=None):
    pq.write_table(table, path, row_group_size=row_group_size or max(1, table.num_rows))
    return path


def write_csv(table, path):
    pacsv.write_csv(table, path)
    return path


def write_ipc(table, path, chunk=50):
    feather.write_feather(table, path, chunksize=chunk, compression="uncompressed")
    return path
