"""hpcdb: distributed joins and shuffles of Arrow tables over MPI.

A program runs on every rank of an MPI job (``mpirun -np 4 python job.py``);
each rank holds its share of every table, and every function here is
*collective*: all ranks of the communicator call it, in the same order, with
the same arguments and each its own share. Errors are raised on every rank
alike (:class:`UsageError` for a mistake in the arguments or the data,
:class:`Error` when the engine cannot do what was asked).

    import hpcdb
    orders = hpcdb.read_parquet("orders/")            # this rank's share
    lineitem = hpcdb.read_parquet("lineitem/", columns=["l_orderkey", "l_quantity"])
    rows = hpcdb.join(lineitem, orders, left_on="l_orderkey", right_on="o_orderkey")
    hpcdb.write_parquet(rows, "result/")               # result/part-00000.parquet, ...

Tables come in as any Arrow data (pyarrow, Polars, DuckDB, or pandas through
pyarrow) and go out as pyarrow tables, sharing their buffers. ``comm`` takes
an mpi4py communicator (default: every rank of the job); mpi4py is optional.
"""
import ctypes as _ctypes

import pyarrow as _pa  # loads the Arrow libraries the engine is built against

# Open MPI's plugins resolve symbols of libmpi, which must be global.
try:
    _ctypes.CDLL("libmpi.so.40", mode=_ctypes.RTLD_GLOBAL)
except OSError:
    pass

from . import _core  # noqa: E402
from ._arrow import as_table as _as_table, capsule_of as _capsule_of, table_of as _table_of  # noqa: E402
from ._context import agree as _agree, communicator as _communicator  # noqa: E402
from ._errors import Error, UsageError  # noqa: E402

__all__ = ["Error", "UsageError", "gather", "join", "rank", "read_csv", "read_parquet", "shuffle", "size",
           "write_parquet"]

_HOWS = ("inner", "left", "right", "full", "outer", "semi", "anti")


def rank(comm=None):
    """This process's rank in ``comm`` (collective)."""
    with _communicator(comm) as engine:
        return engine.rank


def size(comm=None):
    """The number of ranks in ``comm`` (collective)."""
    with _communicator(comm) as engine:
        return engine.size


def _names(value, what):
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    names = list(value)
    if not all(isinstance(n, str) for n in names):
        raise TypeError(f"{what} must be a column name or a list of them")
    return names


def _prepared(engine, step):
    """Runs step() on every rank; a failure on any rank is raised on all."""
    result, failure = None, None
    try:
        result = step()
    except Exception as e:  # agreed below, raised on every rank
        failure = e
    _agree(engine, failure)
    return result


def read_parquet(path, columns=None, *, comm=None, progress=False):
    """Collective: this rank's share of a Parquet dataset, as a pyarrow.Table.

    ``path`` is a file, a directory of files or a glob; the ranks share its
    row groups (a dataset with fewer row groups than ranks still works: some
    ranks get none). ``columns`` reads only these. ``progress`` shows a
    progress line on rank 0's terminal for a long read."""
    return _read(path, columns, None, ",", comm, progress)


def read_csv(path, columns=None, *, types=None, delimiter=",", comm=None, progress=False):
    """Collective: this rank's share of a CSV file with a header line (or an
    Arrow IPC file), as a pyarrow.Table. ``types`` gives some columns' types
    by name ({"id": "int64", "day": "date32", "price": "decimal128(15,2)"});
    the others are inferred."""
    return _read(path, columns, types, delimiter, comm, progress)


def _read(path, columns, types, delimiter, comm, progress):
    def step():
        return str(path), _names(columns, "columns"), {str(k): str(v) for k, v in (types or {}).items()}
    with _communicator(comm) as engine:
        path, columns, types = _prepared(engine, step)
        return _table_of(_core.read_table(engine, path, columns, types, delimiter, bool(progress)))


def write_parquet(table, directory, *, overwrite=False, comm=None, progress=False):
    """Collective: every rank's share as ``directory/part-NNNNN.parquet`` (one
    file per rank), complete or not at all (written under temporary names,
    renamed at the end). An existing directory is refused unless
    ``overwrite``. Returns {"file": this rank's file, "bytes": its size}."""
    with _communicator(comm) as engine:
        table = _prepared(engine, lambda: _as_table(table, "table"))
        return _core.write_parquet(engine, _capsule_of(table), str(directory), bool(overwrite), bool(progress))


def gather(table, root=0, *, comm=None):
    """Collective: every rank's share, in rank order, as one pyarrow.Table at
    ``root`` (None at the other ranks). At most 2 GiB in all."""
    with _communicator(comm) as engine:
        table = _prepared(engine, lambda: _as_table(table, "table"))
        capsule = _core.gather(engine, _capsule_of(table), int(root))
    return None if capsule is None else _table_of(capsule)


def _keys(on, left_on, right_on):
    if on is not None:
        if left_on is not None or right_on is not None:
            raise UsageError("give either on or left_on and right_on, not both")
        return _names(on, "on"), _names(on, "on")
    if left_on is None or right_on is None:
        raise UsageError("name the key columns: on=..., or left_on=... and right_on=...")
    left, right = _names(left_on, "left_on"), _names(right_on, "right_on")
    if len(left) != len(right) or not left:
        raise UsageError(f"left_on and right_on must name as many columns, at least one (got {left} and {right})")
    return left, right


def _timeout(seconds):
    if not (isinstance(seconds, (int, float)) and 0 < seconds <= 1e6):
        raise UsageError(f"progress_timeout must be more than 0 and at most 1000000 s, not {seconds!r}")
    return float(seconds)


def join(left, right, on=None, *, left_on=None, right_on=None, how="inner", algorithm="auto", strategy="auto",
         suffixes=("_l", "_r"), columns=None, stats=False, comm=None, progress_timeout=10.0,
         testing_hash_bits=64):
    """Collective: a join of two distributed tables; returns this rank's
    result rows as a pyarrow.Table (and the run's report with ``stats=True``).

    left, right   each rank's share of each table: any Arrow data (pyarrow,
                  Polars, DuckDB) or a pandas DataFrame; every rank's share
                  of a table must have the same columns and types.
    on            key column(s) both tables have; or left_on and right_on.
                  Integers, dates, timestamps or strings; several columns
                  make a composite key. Null keys match nothing, as in SQL.
    how           "inner", "left", "right", "full" (or "outer"), "semi" or
                  "anti" (rows of ``left`` with, or without, a match).
    algorithm     "auto" (radix), "radix" or "sort-merge": a partitioned
                  join's operator.
    strategy      "auto", "partitioned" (both tables' keys partitioned over
                  the ranks, then the result's columns fetched from the rows'
                  owners) or "broadcast" (the smaller table copied to every
                  rank and probed there by the other's own rows); auto
                  broadcasts when the smaller table's bytes times the other
                  ranks are at most the larger table's.
    suffixes      added to a column name both tables have (left, right).
    columns       the result's columns by result name (default: every column
                  of both tables, of ``left`` only for semi and anti joins).
    stats         also return a dict: the plan, rows, bytes sent, phase
                  times and peak memory per rank.
    progress_timeout  seconds a silent rank is waited for before the job ends.
    testing_hash_bits  testing aid: fewer bits make string-key hashes collide.

    Which rank holds which result rows follows the keys (partitioned), or
    the larger table's rows (broadcast), not the inputs."""
    def step():
        left_keys, right_keys = _keys(on, left_on, right_on)
        kind = "full" if how == "outer" else how
        if kind not in _HOWS:
            raise UsageError(f"how must be one of {', '.join(_HOWS)}, not {how!r}")
        if algorithm not in ("auto", "radix", "sort-merge"):
            raise UsageError(f"algorithm must be 'auto', 'radix' or 'sort-merge', not {algorithm!r}")
        if strategy not in ("auto", "partitioned", "broadcast"):
            raise UsageError(f"strategy must be 'auto', 'partitioned' or 'broadcast', not {strategy!r}")
        if len(tuple(suffixes)) != 2:
            raise UsageError("suffixes takes two strings: (left, right)")
        return (_as_table(left, "left"), _as_table(right, "right"), left_keys, right_keys, kind,
                _names(columns, "columns"), tuple(str(s) for s in suffixes))
    with _communicator(comm) as engine:
        lt, rt, left_keys, right_keys, kind, names, sfx = _prepared(engine, step)
        capsule, report = _core.join(engine, _capsule_of(lt), _capsule_of(rt), left_keys, right_keys, kind,
                                     algorithm, strategy, names, sfx, float(progress_timeout), int(testing_hash_bits))
    result = _table_of(capsule)
    return (result, report) if stats else result


def shuffle(table, on, *, stats=False, comm=None, progress_timeout=10.0):
    """Collective: rows hash-partitioned by the key column(s) ``on``, so that
    all rows of a key are on one rank; returns this rank's rows as a
    pyarrow.Table (and the run's report with ``stats=True``).
    ``progress_timeout``: seconds a silent rank is waited for before the job
    ends."""
    with _communicator(comm) as engine:
        t, keys = _prepared(engine, lambda: (_as_table(table, "table"), _names(on, "on"),
                                             _timeout(progress_timeout))[:2])
        capsule, report = _core.shuffle(engine, _capsule_of(t), keys, float(progress_timeout))
    result = _table_of(capsule)
    return (result, report) if stats else result
