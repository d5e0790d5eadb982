#!/usr/bin/env bash
# Installs what hpcdb needs to build, test and run on Debian (run as root),
# and lets Open MPI start as root from any shell. Does nothing when all is there.
set -euo pipefail

packages=(g++ make cmake ninja-build pkg-config openmpi-bin libopenmpi-dev libgtest-dev libgmock-dev
          libbenchmark-dev libcli11-dev nlohmann-json3-dev libfmt-dev python3 python3-venv python3-dev iproute2
          libucx-dev)
# make fuzz: libFuzzer comes with clang.
if [ -n "${HPCDB_SETUP_FUZZ:-}" ]; then packages+=(clang libclang-rt-dev); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "hpcdb setup: missing packages: ${missing[*]}; run 'make' as root, or install them with apt-get" >&2
    exit 1
  fi
  echo "hpcdb setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi

# Open MPI's mpirun refuses root unless these are set; make them part of every
# root shell so that 'mpirun -np 2 build/hpcdb ...' works as typed.
if [ "$(id -u)" -eq 0 ]; then
  line='export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # hpcdb'
  profile=/etc/profile.d/hpcdb-openmpi.sh
  [ -f "$profile" ] || echo "$line" > "$profile" 2>/dev/null || true
  for rc in /root/.bashrc; do
    if [ -w "$(dirname "$rc")" ] && ! grep -qs 'OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # hpcdb' "$rc"; then
      echo "$line" >> "$rc"
    fi
  done
fi

"$(dirname "$0")/tune.sh"

# The Python environment (.venv): the build links Arrow and Parquet from the
# pyarrow wheel; `make test` and the benchmarks ask for more (python_env.sh).
"$(dirname "$0")/python_env.sh" "${HPCDB_PYTHON_LEVEL:-build}"
