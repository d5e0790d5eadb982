"""Shared by the package's tests: every test runs on every rank (pytest under
mpirun), so a check made at one rank is agreed before it is asserted, or the
ranks would part ways and wait on each other. A failure that is not agreed
(an assertion or an error on some ranks only) ends the job at once, its
report printed, rather than leaving the other ranks waiting until the
test's time limit."""
import os
import shutil
import sys
import tempfile

import duckdb
import pyarrow as pa
import pytest

import hpcdb
from hpcdb import _context


class AgreedFailure(AssertionError):
    """A test's failure that every rank raises."""


def everywhere(failure_text):
    """Fails the test on every rank when any rank has a failure text."""
    with _context.communicator(None) as engine:
        first = engine.first_complaint(failure_text or "")
    if first:
        raise AgreedFailure(first)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    report = (yield).get_result()
    if not report.failed or hpcdb.size() == 1 or (call.excinfo and call.excinfo.errisinstance(AgreedFailure)):
        return
    sys.stdout.flush()
    sys.stderr.write(f"\nrank {hpcdb.rank()}: {item.nodeid} failed ({report.when}) on this rank, perhaps not on "
                     f"the others, which would wait for it: ending the job\n{report.longreprtext}\n")
    sys.stderr.flush()
    os._exit(1)


def share_of(table, rank=None, size=None):
    """Rank's slice of a whole table (contiguous, possibly empty)."""
    rank = hpcdb.rank() if rank is None else rank
    size = hpcdb.size() if size is None else size
    step = (table.num_rows + size - 1) // size
    return table.slice(min(rank * step, table.num_rows), step)


def sorted_rows(table):
    rows = table.to_pylist()
    return sorted(rows, key=lambda r: [(v is None, str(v)) for v in r.values()])


def duckdb_answer(sql, **tables):
    con = duckdb.connect()
    for name, table in tables.items():
        con.register(name, table)
    relation = con.sql(sql)
    fetch = getattr(relation, "to_arrow_table", None) or relation.arrow  # DuckDB 1.4+, or before
    return fetch()


def check_at_root(result, expected_sql, **tables):
    """Gathers `result` at rank 0 and compares its rows (as a multiset) with DuckDB's."""
    whole = hpcdb.gather(result)
    failure = ""
    if hpcdb.rank() == 0:
        try:  # a failure here must reach every rank, or the others would go on without rank 0
            expected = duckdb_answer(expected_sql, **tables)
            got, want = sorted_rows(whole), sorted_rows(expected.rename_columns(whole.column_names))
            if got != want:
                failure = f"{len(got)} rows, DuckDB has {len(want)}; first differences: " + str(
                    [(g, w) for g, w in zip(got, want) if g != w][:3])
        except Exception as e:
            failure = f"checking at rank 0: {type(e).__name__}: {e}"
    everywhere(failure)


@pytest.fixture
def shared_directory(request):
    """A directory every rank names alike (one node: mpirun is every rank's parent), removed after the test."""
    path = os.path.join(tempfile.gettempdir(), f"hpcdb-pytest-{os.getppid()}", request.node.name)
    os.makedirs(path, exist_ok=True)
    yield path
    everywhere("")  # every rank is done with it
    if hpcdb.rank() == 0:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def tables():
    """Two tables with duplicate keys on both sides, nulls in keys and payloads, strings."""
    left = pa.table({
        "id": pa.array([1, 2, 2, 3, None, 5, 7, 7, 8, 11, 12, 13], pa.int64()),
        "name": pa.array(["a", "b", "b2", None, "e", "f", "g", "g2", "h", "k", "l", "m"]),
        "qty": pa.array([1.5, 2.0, None, 4.0, 5.0, 6.0, 7.0, 7.5, 8.0, 11.0, 12.0, 13.0]),
    })
    right = pa.table({
        "id": pa.array([2, 3, 3, 5, 6, None, 7, 9, 13, 13], pa.int64()),
        "name": pa.array(["x", "y", "y2", "z", None, "n", "w", "v", "u", "u2"]),
        "day": pa.array([10, 11, 12, 13, 14, 15, 16, 17, 18, 19], pa.int32()).cast(pa.date32()),
    })
    return left, right
