#!/usr/bin/env bash
# hpcdb txn --testing-fault ignore-no-vote (2PC commits despite a no) is caught by --check (txn_testing_fault.sh).
# ctest-timeout: 1200
exec "$(dirname "$0")/txn_testing_fault.sh" "$1" ignore-no-vote
