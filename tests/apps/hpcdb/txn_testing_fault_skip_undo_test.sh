#!/usr/bin/env bash
# hpcdb txn --testing-fault skip-undo (a roll back leaves its writes) is caught by --check (txn_testing_fault.sh).
# ctest-timeout: 1200
exec "$(dirname "$0")/txn_testing_fault.sh" "$1" skip-undo
