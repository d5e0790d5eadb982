#!/usr/bin/env bash
# Runs an MPI job over N emulated hosts on this machine: one network
# namespace per host (its own host name, address 10.77.0.K), joined by veth
# pairs to a bridge in a switch namespace, each link shaped with tc (token
# bucket) to the given rate; the ranks talk over TCP only. Everything is
# removed on exit, also after a failure or an interrupt. Needs root. UCX
# (the shuffle's UCX designs) is held to TCP as well (UCX_TLS=tcp,self
# unless set).
#
#   scripts/emulated_cluster.sh --hosts 3 [--ranks-per-host 1] [--rate 10gbit] [--port-buffer 256kb] -- build/hpcdb join --inner 4M --outer 4M --verify
#
# Rates are tc rates (1gbit, 10gbit, 25gbit, 100mbit). The kernel here has no
# netem, so latency is the veth's own (a few microseconds), not shaped.
# --port-buffer (a tc size, default 256kb) is the switch's queue in front of
# each host: commodity switches have some 85-350 KB per port (4 MB shared by
# 48 ports, 16 MB by 48). Two senders to one receiver then overflow it, TCP
# backs off, and their cross traffic costs what it costs on a real switch; a
# queue of many megabytes would instead absorb it and delay every message
# behind it.
# One emulated cluster exists at a time on a machine (the namespaces and
# addresses are fixed): a second run waits for the first (up to
# HPCDB_EMULATED_WAIT seconds, default 900) instead of tearing down its hosts.
set -euo pipefail

hosts=2
per_host=1
rate=10gbit
port_buffer=256kb
while [ $# -gt 0 ]; do
  case "$1" in
    --hosts) hosts=$2; shift 2 ;;
    --ranks-per-host) per_host=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --port-buffer) port_buffer=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "emulated_cluster.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "emulated_cluster.sh: give the program to run after --" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "emulated_cluster.sh: needs root (network namespaces)" >&2; exit 2; }
[[ "$hosts" =~ ^[0-9]+$ ]] && [ "$hosts" -ge 1 ] && [ "$hosts" -le 32 ] || { echo "emulated_cluster.sh: --hosts must be 1..32" >&2; exit 2; }
command -v ip > /dev/null || { echo "emulated_cluster.sh: needs 'ip' and 'tc' (Debian package iproute2)" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
switch=hpcdb-sw

lock=/run/lock/hpcdb-emulated-cluster.lock
mkdir -p "$(dirname "$lock")"
exec 8> "$lock"
if ! flock -n 8; then
  echo "emulated_cluster.sh: another emulated cluster is running on this machine; waiting for it" >&2
  flock -w "${HPCDB_EMULATED_WAIT:-900}" 8 || { echo "emulated_cluster.sh: it did not end in time" >&2; exit 1; }
fi

job=""
cleanup() {
  [ -z "$job" ] || kill -TERM "$job" 2> /dev/null || true
  for k in $(seq 1 32); do ip netns del "hpcdb-h$k" 2> /dev/null || true; done
  ip netns del "$switch" 2> /dev/null || true
}
trap cleanup EXIT
trap 'cleanup; exit 143' TERM
trap 'cleanup; exit 130' INT
cleanup  # leftovers of an earlier run that was killed

ip netns add "$switch"
ip netns exec "$switch" ip link add br0 type bridge
ip netns exec "$switch" ip link set br0 up
for k in $(seq 1 "$hosts"); do
  ns=hpcdb-h$k
  ip netns add "$ns"
  ip link add "veth$k" netns "$ns" type veth peer name "port$k" netns "$switch"
  ip netns exec "$switch" ip link set "port$k" master br0
  ip netns exec "$switch" ip link set "port$k" up
  ip netns exec "$ns" ip addr add "10.77.0.$k/24" dev "veth$k"
  ip netns exec "$ns" ip link set "veth$k" up
  ip netns exec "$ns" ip link set lo up
  # Shape both directions of the host's link; the host's own queue is
  # bounded by TCP (small queues per socket), the switch port's by its buffer.
  ip netns exec "$ns" tc qdisc add dev "veth$k" root tbf rate "$rate" burst 1mb latency 100ms
  ip netns exec "$switch" tc qdisc add dev "port$k" root tbf rate "$rate" burst 1mb limit "$port_buffer"
done

host_list=$(seq -s, -f "10.77.0.%g:$per_host" 1 "$hosts")
mpirun_args=(--host "$host_list" --np $((hosts * per_host)) --bind-to none
  --mca plm_rsh_agent "$here/netns_agent.sh"
  --mca btl tcp,self --mca pml ob1 --mca osc sm,pt2pt
  --mca btl_tcp_if_include 10.77.0.0/24 --mca oob_tcp_if_include 10.77.0.0/24
  -x OMPI_ALLOW_RUN_AS_ROOT=1 -x OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  # UCX would reach ranks on other emulated hosts through shared memory
  # (one kernel, one /dev/shm), past the shaped links: TCP only for it too.
  -x "UCX_TLS=${UCX_TLS:-tcp,self}")
# A sanitized build's settings reach every rank (make test sets them).
for variable in ASAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS; do
  [ -n "${!variable:-}" ] && mpirun_args+=(-x "$variable")
done
# In the background, so that a TERM or INT (a test's timeout, Ctrl-C) reaches
# the trap at once and ends the job instead of waiting for it.
status=0
ip netns exec hpcdb-h1 unshare --uts /bin/sh -c 'hostname hpcdb-h1 && exec "$@"' sh \
  env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun "${mpirun_args[@]}" "$@" &
job=$!
wait "$job" || status=$?
job=""
exit $status
