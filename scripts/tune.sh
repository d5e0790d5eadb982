#!/usr/bin/env bash
# Optional, non-persistent system tuning for hpcdb (root only, until reboot):
# lets the node-shared receive windows use transparent huge pages. A radix
# partitioning pass writes to as many pages at once as it has partitions, so
# 2 MiB pages save most TLB misses (measured: about 15% faster joins).
set -u
[ "$(id -u)" -eq 0 ] || exit 0
if mount | grep -q ' /dev/shm type tmpfs' && ! mount | grep ' /dev/shm ' | grep -q 'huge='; then
  mount -o remount,huge=advise /dev/shm 2>/dev/null && echo "hpcdb tune: /dev/shm now allows huge pages (huge=advise)"
fi
exit 0
