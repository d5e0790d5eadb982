# hpcdb: every target installs what it needs first (Debian packages, as root).
BUILD ?= build
NP ?= 2
# Open MPI refuses to start as root unless told it is intended.
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1
MPIRUN := mpirun --oversubscribe --bind-to none -np

.PHONY: all setup configure python-test python-bench build demo test release-test sanitize tsan fuzz bench-join bench-txn bench-tpcc bench-peers bench-experiment bench-shuffle bench-ssb bench-tables clean

all: build

setup:
	@scripts/setup.sh

configure: setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null

# Everything: the program, the Python package, the tests, the benchmarks;
# then .venv imports the package from the build (a .pth file).
build: configure
	@cmake --build $(BUILD)
	@scripts/python_env.sh link $(CURDIR)/$(BUILD)/python

# Only the program and the Python package (no tests), then the demo join.
demo: configure
	@cmake --build $(BUILD) --target hpcdb hpcdb_python
	@scripts/python_env.sh link $(CURDIR)/$(BUILD)/python
	$(MPIRUN) $(NP) $(BUILD)/hpcdb join --algorithm radix --inner 16M --outer 16M --verify

# Independent tests run side by side: each says how many processes it keeps
# busy (its ranks), and CTest starts tests while their sum stays within
# CTEST_JOBS. MPI jobs oversubscribe the cores anyway (ranks yield when idle),
# and no test depends on its speed; CTest's log has each test's time. 6 lets
# two 3-rank scripts run side by side: most of them wait on purpose (timeouts,
# stopped ranks, fixed durations), and with 4 the sanitizer build ran its
# scripts one at a time with a core idle (1,449 s; 907 s with 6, CPU 95% busy).
CTEST_JOBS ?= 6
CTEST := ctest --output-on-failure --timeout 1200 -j $(CTEST_JOBS)

# The Release build and its unit, MPI and Python package tests, then every test under
# AddressSanitizer and UndefinedBehaviorSanitizer, then the threaded code
# under ThreadSanitizer (each in a build directory of its own). The scripts
# that compare answers with DuckDB take it from .venv.
test: python-test
	@$(MAKE) --no-print-directory release-test
	@$(MAKE) --no-print-directory sanitize
	@$(MAKE) --no-print-directory tsan

# Unit and MPI tests, and each end-to-end script at the rank counts the
# sanitizer build leaves to it (label release: every count but one, and the
# Python package's tests, which sanitizer builds leave out).
release-test: build
	cd $(BUILD) && $(CTEST) -L '^(unit|mpi|release)$$'

# AddressSanitizer and UndefinedBehaviorSanitizer over every test: unit and MPI
# tests (1 to 4 ranks), the fuzz corpus replays and the end-to-end scripts
# (each at one rank count), which run the sanitized program (-O1, line tables only).
# Every finding fails its test; leak checks are off (Open MPI's allocations at
# exit are not ours to free).
ASAN_BUILD ?= build-asan
sanitize: setup python-test
	@cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
	  -DHPCDB_SANITIZE=address,undefined -DHPCDB_TEST_PYTHON=$(CURDIR)/.venv/bin/python > /dev/null
	@cmake --build $(ASAN_BUILD)
	cd $(ASAN_BUILD) && $(CTEST)

# ThreadSanitizer over the threaded kernels, the worker teams, the node-shared
# task lists and the buffer pool (unit tests, and the serialized MPI suite's
# tests of them on 1 and 2 ranks), and the whole threaded MPI suite (the message
# layer's network threads) on 2 and 3 ranks: tests/thread_sanitizer.cmake.
TSAN_BUILD ?= build-tsan
tsan: setup
	@cmake -S . -B $(TSAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
	  -DHPCDB_SANITIZE=thread > /dev/null
	@cmake --build $(TSAN_BUILD) --target hpcdb_unit_tests hpcdb_mpi_tests hpcdb_threaded_mpi_tests
	cd $(TSAN_BUILD) && $(CTEST)

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

# The project's Python environment (.venv, requirements.txt): the build needs
# pyarrow (setup), the tests DuckDB, the benchmarks Polars, matplotlib, tpchgen-cli.
python-test:
	@scripts/python_env.sh test
python-bench:
	@scripts/python_env.sh bench

# TPC-C: warehouses x transaction agents x isolation levels, interleaved runs, table and plot
# (TPCC_SWEEP="--repeat 1 --duration 1" for a quick look; bench/tpcc_sweep.py --help lists the options).
TPCC_SWEEP ?=
bench-tpcc: build python-bench
	.venv/bin/python bench/tpcc_sweep.py --hpcdb $(BUILD)/hpcdb $(TPCC_SWEEP)

bench-peers: build python-bench
	.venv/bin/python bench/peers.py --inner 16M --outer 16M --repeat 3

# EXPERIMENT=phases|size|ratio|skew|shape|bandwidth|topologies|multiplicity|all-to-all;
# ROUNDS interleaves the variants of topologies, multiplicity and all-to-all.
EXPERIMENT ?= phases
REPEAT ?= 5
ROUNDS ?= 1
bench-experiment: build python-bench
	.venv/bin/python bench/experiments.py $(EXPERIMENT) --repeat $(REPEAT) --rounds $(ROUNDS)

# The shuffle designs side by side: 2 ranks on one node (64M 16-byte rows),
# then 4 emulated hosts at 1 and 10 Gbit/s (root; LAYOUTS=node skips them).
LAYOUTS ?= node,1gbit,10gbit
bench-shuffle: build python-bench
	.venv/bin/python bench/shuffle.py --layouts $(LAYOUTS) --repeat 5

# The Star Schema Benchmark at scale factor 5: hpcdb ssb next to DuckDB on the same data and query
# streams at 1, 4, 16, 64 and 256 clients (DuckDB's best of 1, 2, 4 and N connections), 3 interleaved
# rounds, then point queries under scan load with priorities on and off (several hours;
# SSB="--scale 1 --duration 20 --repeat 1" for a quick look, bench/ssb.py --help lists the options).
SSB ?=
bench-ssb: build python-bench
	.venv/bin/python bench/ssb.py --hpcdb $(BUILD)/hpcdb $(SSB)

# Tables: TPC-H SF 10 lineitem ⋈ orders (9 columns) on 2 ranks, Parquet in -> Parquet out against DuckDB
# and Polars (and Spark local[2] with TABLES="--spark"), in memory against DuckDB; results checked equal.
TABLES ?=
bench-tables: build python-bench
	.venv/bin/python bench/tables.py --hpcdb $(BUILD)/hpcdb $(TABLES)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(FUZZ_BUILD)
