#!/usr/bin/env bash
# The Python package under mpirun: joins, shuffles, reads, writes and gathers
# of pyarrow, Polars, pandas and DuckDB data, answers against DuckDB, errors
# raised alike on every rank, and the documentation's examples.
# Usage: python_package_test.sh path/to/hpcdb (RANKS, HPCDB_PYTHON: the project's .venv Python)
# ctest-ranks: 1 2 3
# ctest-sanitized-ranks: none
# ctest-timeout: 900
set -u
package=$(cd "$(dirname "$1")" && pwd)/python
python=${HPCDB_PYTHON:-}
if ! [ -f "$package/hpcdb/__init__.py" ]; then
  echo "skipped: this build has no Python package (sanitizer builds leave it out)"
  exit 77
fi
if [ -z "$python" ] || ! "$python" -c 'import duckdb, pyarrow, polars, pandas, pytest' 2> /dev/null; then
  echo "skipped: no Python with DuckDB, pyarrow, Polars, pandas and pytest (make test installs them into .venv)"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
export PYTHONPATH="$package" HPCDB_EXAMPLES="$here/../../examples/python"
exec mpirun --oversubscribe --bind-to none -np "${RANKS:-2}" \
  "$python" -m pytest -q -p no:cacheprovider -o console_output_style=classic "$here"
