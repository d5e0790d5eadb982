#!/usr/bin/env bash
# hpcdb join on tables (Parquet, CSV, Arrow IPC) against DuckDB on the same files: every join kind,
# every column type, nulls, duplicates, empty inputs, forced hash collisions, Zipf keys, bad inputs.
# Usage: table_join_test.sh path/to/hpcdb (RANKS, HPCDB_PYTHON: a Python with DuckDB and pyarrow)
# ctest-ranks: 1 2 3 4
# ctest-timeout: 900
set -u
python=${HPCDB_PYTHON:-}
if [ -z "$python" ] || ! "$python" -c 'import duckdb, pyarrow' 2> /dev/null; then
  echo "skipped: no Python with DuckDB and pyarrow (make test installs them into .venv)"
  exit 77
fi
exec "$python" "$(dirname "$0")/table_join_duckdb_test.py" "$1" --ranks "${RANKS:-2}"
