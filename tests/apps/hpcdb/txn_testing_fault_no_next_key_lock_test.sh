#!/usr/bin/env bash
# hpcdb txn --testing-fault no-next-key-lock (phantoms) is caught by --check (txn_testing_fault.sh).
# ctest-timeout: 1200
exec "$(dirname "$0")/txn_testing_fault.sh" "$1" no-next-key-lock
