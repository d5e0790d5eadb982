#!/usr/bin/env bash
# Open MPI's remote launch agent for emulated hosts (used instead of ssh by
# scripts/emulated_cluster.sh): "netns_agent.sh [ssh-style options] HOST CMD..."
# runs CMD in the network namespace of HOST (10.77.0.K -> hpcdb-hK), with the
# namespace's own host name so that Open MPI sees a separate node.
set -u
while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do shift; done  # ssh options, if any
host=$1
shift
k=${host##*.}
case "$host" in
  10.77.0.*) ;;
  *) echo "netns_agent.sh: unknown emulated host '$host'" >&2; exit 1 ;;
esac
exec ip netns exec "hpcdb-h$k" unshare --uts /bin/sh -c "hostname hpcdb-h$k && $*"
