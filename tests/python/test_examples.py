"""The documentation's examples run as they are, on every rank."""
import os
import runpy
import subprocess
import sys

import pyarrow.parquet as pq

import hpcdb
from conftest import everywhere

EXAMPLES = os.environ.get("HPCDB_EXAMPLES", os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python"))


def run_example(name, *argv):
    saved = sys.argv
    sys.argv = [name, *argv]
    try:
        return runpy.run_path(os.path.join(EXAMPLES, name), run_name="__main__")
    finally:
        sys.argv = saved


def test_join_parquet_example(shared_directory):
    output = os.path.join(shared_directory, "result")
    run_example("join_parquet.py", "--data", os.path.join(shared_directory, "data"), "--output", output)
    everywhere("")
    failure = ""
    if hpcdb.rank() == 0:
        result = pq.read_table(output)
        if result.num_rows != 400_000 or len(os.listdir(output)) != hpcdb.size():
            failure = f"{result.num_rows} rows in {len(os.listdir(output))} files"
    everywhere(failure)


def test_shuffle_groupby_example():
    try:
        run_example("shuffle_groupby.py")  # checks its result at rank 0
        failure = ""
    except AssertionError as e:
        failure = str(e)
    everywhere(failure)


def test_slurm_script_is_valid_bash():
    script = os.path.join(EXAMPLES, "..", "slurm", "join_parquet.sbatch")
    assert subprocess.run(["bash", "-n", script]).returncode == 0
