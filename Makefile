# hpcdb: every target installs what it needs first (Debian packages, as root).
BUILD ?= build
NP ?= 2
# Open MPI refuses to start as root unless told it is intended.
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1
MPIRUN := mpirun --oversubscribe --bind-to none -np

.PHONY: all setup build demo test sanitize tsan fuzz bench-join bench-txn bench-tpcc bench-peers bench-experiment bench-shuffle bench-ssb clean

all: build

setup:
	@scripts/setup.sh

build: setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
	@cmake --build $(BUILD)

demo: build
	$(MPIRUN) $(NP) $(BUILD)/hpcdb join --algorithm radix --inner 16M --outer 16M --verify

# The SSB tests check answers against DuckDB from bench/.venv. Then the
# sanitizer build and its tests (below).
test: build bench/.venv/bin/python
	cd $(BUILD) && ctest --output-on-failure --timeout 900
	@$(MAKE) --no-print-directory sanitize

# The unit tests and the MPI tests (1 and 2 ranks) built with AddressSanitizer
# and UndefinedBehaviorSanitizer (-O1, line tables only, a build directory of
# their own; the commands' library is left out, see tests/CMakeLists.txt).
# Open MPI's own allocations are not ours to free, so leak checks are off;
# every other finding fails the test.
ASAN_BUILD ?= build-asan
sanitize: setup
	@cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
	  -DHPCDB_SANITIZE=address,undefined > /dev/null
	@cmake --build $(ASAN_BUILD) --target hpcdb_unit_tests hpcdb_mpi_tests hpcdb_messaging_tests hpcdb_query_tests
	cd $(ASAN_BUILD) && ctest --output-on-failure --timeout 900

# ThreadSanitizer over the threaded kernels, the worker teams and the node-shared
# task lists (unit tests and the joins' MPI tests on 1 and 2 ranks), and the
# message layer's network threads (its suite on 2 and 3 ranks; scripts/tsan.sh).
TSAN_BUILD ?= build-tsan
TSAN_TESTS ?= WorkerTeam|RunOnThreads|NodeTask|Threads|threads|Parallel|NodeSharing|Skew|BufferPool|MergeLevel
tsan: setup
	@cmake -S . -B $(TSAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
	  -DHPCDB_SANITIZE=thread > /dev/null
	@cmake --build $(TSAN_BUILD) --target hpcdb_unit_tests hpcdb_mpi_tests hpcdb_messaging_tests
	@scripts/tsan.sh $(TSAN_BUILD) '$(TSAN_TESTS)'

# libFuzzer targets (clang), each run for FUZZ_SECONDS from its corpus in tests/fuzz/corpus/.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= csv_reader binary_reader sizes options calibration txn_messages
fuzz:
	@HPCDB_SETUP_FUZZ=1 scripts/setup.sh
	@cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
	  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DHPCDB_FUZZ=ON -DHPCDB_WERROR=OFF > /dev/null
	@cmake --build $(FUZZ_BUILD) --target $(addprefix fuzz_,$(FUZZ_TARGETS))
	@scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

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

# EXPERIMENT=phases|size|ratio|skew|shape|bandwidth|topologies|multiplicity|all-to-all;
# ROUNDS interleaves the variants of topologies, multiplicity and all-to-all.
EXPERIMENT ?= phases
REPEAT ?= 5
ROUNDS ?= 1
bench-experiment: build bench/.venv/bin/python
	bench/.venv/bin/python bench/experiments.py $(EXPERIMENT) --repeat $(REPEAT) --rounds $(ROUNDS)

# The shuffle designs side by side: 2 ranks on one node (64M 16-byte rows),
# then 4 emulated hosts at 1 and 10 Gbit/s (root; LAYOUTS=node skips them).
LAYOUTS ?= node,1gbit,10gbit
bench-shuffle: build bench/.venv/bin/python
	bench/.venv/bin/python bench/shuffle.py --layouts $(LAYOUTS) --repeat 5

# The Star Schema Benchmark at scale factor 5: hpcdb ssb next to DuckDB on the same data and query
# streams at 1, 4, 16, 64 and 256 clients (DuckDB's best of 1, 2, 4 and N connections), 3 interleaved
# rounds, then point queries under scan load with priorities on and off (several hours;
# SSB="--scale 1 --duration 20 --repeat 1" for a quick look, bench/ssb.py --help lists the options).
# SSB_PYTHON: an interpreter with duckdb and matplotlib.
SSB ?=
SSB_PYTHON ?= bench/.venv/bin/python
bench-ssb: build $(SSB_PYTHON)
	$(SSB_PYTHON) bench/ssb.py --hpcdb $(BUILD)/hpcdb $(SSB)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(FUZZ_BUILD)
