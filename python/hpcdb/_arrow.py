"""Tables in and out. In: anything that exports Arrow data (the Arrow
PyCapsule interface, __arrow_c_stream__ or __arrow_c_array__: pyarrow tables,
record batches and readers, Polars DataFrames, DuckDB results) or a pandas
DataFrame (through pyarrow). Out: pyarrow tables. The buffers are shared,
not copied, both ways."""
import pyarrow as pa


def as_table(obj, name):
    """``obj`` as a pyarrow.Table (TypeError when it holds no Arrow data)."""
    if isinstance(obj, pa.Table):
        return obj
    if isinstance(obj, pa.RecordBatch):
        return pa.Table.from_batches([obj])
    if isinstance(obj, pa.RecordBatchReader):
        return obj.read_all()
    module = type(obj).__module__ or ""
    if module.startswith("pandas"):
        return pa.Table.from_pandas(obj, preserve_index=False)
    if hasattr(obj, "__arrow_c_stream__"):
        return pa.table(obj)
    if hasattr(obj, "__arrow_c_array__"):
        return pa.Table.from_batches([pa.record_batch(obj)])
    arrow = getattr(obj, "arrow", None)  # a DuckDB relation of an older DuckDB
    if callable(arrow) and module.startswith("duckdb"):
        return as_table(arrow(), name)
    raise TypeError(
        f"{name} must be Arrow data (a pyarrow Table, RecordBatch or RecordBatchReader, a Polars DataFrame, "
        f"a DuckDB result, or anything with __arrow_c_stream__) or a pandas DataFrame, not {type(obj).__name__}")


def capsule_of(table):
    return table.__arrow_c_stream__()


class _Stream:
    def __init__(self, capsule):
        self._capsule = capsule

    def __arrow_c_stream__(self, requested_schema=None):
        return self._capsule


def table_of(capsule):
    return pa.table(_Stream(capsule))
