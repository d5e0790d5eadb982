"""Mistakes raise the same exception with the same message on every rank,
even when only one rank made them; none ends the interpreter."""
import os

import pyarrow as pa
import pytest

import hpcdb
from conftest import share_of


def raised_everywhere(call):
    with pytest.raises(Exception) as caught:
        call()
    return caught.value


def test_missing_column(tables):
    left, right = tables
    error = raised_everywhere(lambda: hpcdb.join(share_of(left), share_of(right), on="nope"))
    assert isinstance(error, hpcdb.UsageError) and "nope" in str(error)


def test_key_types_that_do_not_match(tables):
    left, right = tables
    text_keys = right.set_column(0, "id", right["id"].cast(pa.string()))
    error = raised_everywhere(lambda: hpcdb.join(share_of(left), share_of(text_keys), on="id"))
    assert isinstance(error, hpcdb.UsageError)


def test_a_non_arrow_object_on_one_rank_only(tables):
    left, right = tables
    mine = [1, 2, 3] if hpcdb.rank() == hpcdb.size() - 1 else share_of(left)
    error = raised_everywhere(lambda: hpcdb.join(mine, share_of(right), on="id"))
    assert isinstance(error, TypeError) and "Arrow data" in str(error)


def test_shares_with_different_schemas(tables):
    left, right = tables
    mine = share_of(left)
    if hpcdb.rank() == hpcdb.size() - 1 and hpcdb.size() > 1:
        mine = mine.drop_columns(["qty"])
    if hpcdb.size() == 1:
        pytest.skip("one rank has one schema")
    error = raised_everywhere(lambda: hpcdb.join(mine, share_of(right), on="id"))
    assert isinstance(error, hpcdb.UsageError) and "differ between ranks" in str(error)


def test_bad_arguments(tables):
    left, right = tables
    for call, words in [
        (lambda: hpcdb.join(left, right, on="id", how="sideways"), "how"),
        (lambda: hpcdb.join(left, right, on="id", algorithm="nested-loop"), "algorithm"),
        (lambda: hpcdb.join(left, right, on="id", strategy="scatter"), "strategy"),
        (lambda: hpcdb.join(left, right), "key columns"),
        (lambda: hpcdb.join(left, right, left_on=["id", "name"], right_on="id"), "as many"),
        (lambda: hpcdb.read_parquet("/nonexistent/hpcdb/x.parquet"), "nonexistent"),
        (lambda: hpcdb.join(left, right, on="id", progress_timeout=0), "progress_timeout"),
        (lambda: hpcdb.shuffle(left, on="id", progress_timeout=-1), "progress_timeout"),
    ]:
        error = raised_everywhere(call)
        assert isinstance(error, hpcdb.UsageError), (words, type(error), error)
        assert words in str(error)


def test_a_later_call_works_after_errors(tables):
    left, right = tables
    assert hpcdb.join(share_of(left), share_of(right), on="id").num_columns == 6


def test_nulls_in_a_column_declared_not_null(shared_directory):
    schema = pa.schema([pa.field("id", pa.int64(), nullable=False)])
    lying = pa.Table.from_arrays([pa.array([1, None, 3], pa.int64())], schema=schema)
    for call in (lambda: hpcdb.join(share_of(lying), share_of(lying), on="id"),
                 lambda: hpcdb.write_parquet(share_of(lying), os.path.join(shared_directory, "out"))):
        error = raised_everywhere(call)
        assert isinstance(error, hpcdb.UsageError) and "declared not null but holds" in str(error), error
