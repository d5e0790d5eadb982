#!/usr/bin/env bash
# hpcdb txn --testing-fault early-release (locks released before the 2PC vote or the undo) is caught by --check (txn_testing_fault.sh).
# ctest-timeout: 1200
exec "$(dirname "$0")/txn_testing_fault.sh" "$1" early-release
