#!/usr/bin/env bash
# Makes the project's Python environment, .venv at the repository root, hold
# what a target needs (requirements.txt, each line tagged build, test or
# bench; a level takes its own lines and those of the levels below it):
#   scripts/python_env.sh build|test|bench
# and points it at the Python package a build assembled (a .pth file in its
# site-packages, so that `import hpcdb` finds BUILD/python/hpcdb):
#   scripts/python_env.sh link BUILD/python
# Creates the environment when it is missing or broken, installs with pip,
# and records what it installed (.venv/hpcdb-requirements: the level and a
# hash of requirements.txt) so that a later call does nothing.
set -euo pipefail

level=${1:-build}
if [ "$level" = link ]; then
  directory=${2:?python_env.sh link: give the directory that holds the package}
  site=$("$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  echo "$directory" > "$site/hpcdb-build.pth"
  exit 0
fi
case "$level" in
  build) tags='build' ;;
  test) tags='build|test' ;;
  bench) tags='build|test|bench' ;;
  *) echo "python_env.sh: level must be build, test or bench, not '$level'" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.venv"
requirements="$root/requirements.txt"
stamp="$venv/hpcdb-requirements"
digest=$(sha256sum "$requirements" | cut -c1-16)

rank_of() { case "$1" in build) echo 1 ;; test) echo 2 ;; bench) echo 3 ;; *) echo 0 ;; esac; }
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import sys' 2> /dev/null && [ -f "$stamp" ]; then
  read -r have_level have_digest < "$stamp" || true
  if [ "${have_digest:-}" = "$digest" ] && [ "$(rank_of "${have_level:-}")" -ge "$(rank_of "$level")" ]; then exit 0; fi
fi

# Debian's interpreter (scripts/setup.sh installs python3 and python3-venv):
# the same on every machine, whatever else is on the PATH.
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3)
if ! [ -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import sys' 2> /dev/null; then
  echo "hpcdb setup: creating the Python environment $venv"
  rm -rf "$venv"
  "$python" -m venv "$venv"
fi
packages=()
while IFS= read -r line; do
  spec=${line%%#*}
  spec=${spec//[[:space:]]/}
  tag=${line##*#}
  tag=${tag//[[:space:]]/}
  [ -n "$spec" ] || continue
  if [[ "$tag" =~ ^($tags)$ ]]; then packages+=("$spec"); fi
done < "$requirements"
echo "hpcdb setup: installing into .venv (${level}): ${packages[*]}"
"$venv/bin/pip" install -q --disable-pip-version-check "${packages[@]}"
echo "$level $digest" > "$stamp"
