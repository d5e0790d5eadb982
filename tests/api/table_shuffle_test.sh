#!/usr/bin/env bash
# hpcdb shuffle on tables: the rows out equal the rows in (DuckDB), every key on one rank,
# null keys on rank 0, bad inputs.
# Usage: table_shuffle_test.sh path/to/hpcdb (RANKS, HPCDB_PYTHON: a Python with DuckDB and pyarrow)
# ctest-ranks: 1 2 3 4
# ctest-timeout: 900
set -u
python=${HPCDB_PYTHON:-}
if [ -z "$python" ] || ! "$python" -c 'import duckdb, pyarrow' 2> /dev/null; then
  echo "skipped: no Python with DuckDB and pyarrow (make test installs them into .venv)"
  exit 77
fi
exec "$python" "$(dirname "$0")/table_shuffle_test.py" "$1" --ranks "${RANKS:-2}"
