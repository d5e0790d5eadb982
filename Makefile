# hpcdb: every target installs what it needs first (Debian packages, as root).
BUILD ?= build
NP ?= 2
# Open MPI refuses to start as root unless told it is intended.
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1
MPIRUN := mpirun --oversubscribe --bind-to none -np

.PHONY: all setup build demo test bench-join bench-txn bench-tpcc bench-peers bench-experiment bench-shuffle clean

all: build

setup:
	@scripts/setup.sh

build: setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
	@cmake --build $(BUILD)

demo: build
	$(MPIRUN) $(NP) $(BUILD)/hpcdb join --algorithm radix --inner 16M --outer 16M --verify

# The SSB tests check answers against DuckDB from bench/.venv.
test: build bench/.venv/bin/python
	cd $(BUILD) && ctest --output-on-failure --timeout 900

ALGORITHM ?= radix
bench-join: build
	@ALGORITHM=$(ALGORITHM) scripts/bench_join.sh $(BUILD)

# The lock manager's synthetic workload, every transport, interleaved runs.
bench-txn: build
	@scripts/bench_txn.sh $(BUILD)

# Python harness (DuckDB, Polars, matplotlib) in its own virtual environment.
bench/.venv/bin/python: bench/requirements.txt
	python3 -m venv bench/.venv
	bench/.venv/bin/pip install -q -r bench/requirements.txt
	touch bench/.venv/bin/python

# TPC-C: warehouses x transaction agents x isolation levels, interleaved runs, table and plot
# (TPCC_SWEEP="--repeat 1 --duration 1" for a quick look; bench/tpcc_sweep.py --help lists the options).
TPCC_SWEEP ?=
bench-tpcc: build bench/.venv/bin/python
	bench/.venv/bin/python bench/tpcc_sweep.py --hpcdb $(BUILD)/hpcdb $(TPCC_SWEEP)

bench-peers: build bench/.venv/bin/python
	bench/.venv/bin/python bench/peers.py --inner 16M --outer 16M --repeat 3

EXPERIMENT ?= phases
bench-experiment: build bench/.venv/bin/python
	bench/.venv/bin/python bench/experiments.py $(EXPERIMENT) --repeat 5

# The shuffle designs side by side: 2 ranks on one node (64M 16-byte rows),
# then 4 emulated hosts at 1 and 10 Gbit/s (root; LAYOUTS=node skips them).
LAYOUTS ?= node,1gbit,10gbit
bench-shuffle: build bench/.venv/bin/python
	bench/.venv/bin/python bench/shuffle.py --layouts $(LAYOUTS) --repeat 5

clean:
	rm -rf $(BUILD)
