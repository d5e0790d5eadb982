#!/usr/bin/env bash
# the runs of the testing faults, without a fault, pass every check of --check (txn_testing_fault.sh).
# ctest-timeout: 1200
exec "$(dirname "$0")/txn_testing_fault.sh" "$1" none
