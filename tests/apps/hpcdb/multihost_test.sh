#!/usr/bin/env bash
# Joins over 2 and 3 emulated hosts (network namespaces, TCP between hosts)
# must give the same count and checksum as on one host; transactions with
# remote locks must check out; every shuffle design must deliver every row.
# Usage: multihost_test.sh path/to/hpcdb [path/to/scripts/emulated_cluster.sh]
# ctest-timeout: 2700
set -u
hpcdb=$1
cluster=${2:-$(cd "$(dirname "$0")/../../.." && pwd)/scripts/emulated_cluster.sh}
if [ "$(id -u)" -ne 0 ] || ! command -v ip > /dev/null || ! ip netns add hpcdb-probe 2> /dev/null; then
  echo "skipped: needs root and network namespaces"
  exit 77
fi
ip netns del hpcdb-probe
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
passed=0
failed=0

digest() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['matches'], r['checksum'], r['verified'], r['nodes'])" "$1"; }

for algorithm in radix sort-merge; do
  args=(join --algorithm "$algorithm" --inner 300K --outer 900K --zipf 1.1 --verify)
  timeout 600 mpirun --oversubscribe --bind-to none -np 2 "$hpcdb" "${args[@]}" --json "$work/one.json" > /dev/null 2>&1
  read -r m1 c1 v1 n1 <<< "$(digest "$work/one.json")"
  for hosts in 2 3; do
    for per_host in 1 2; do
      name="${algorithm}_${hosts}_hosts_${per_host}_ranks_each"
      if timeout 900 "$cluster" --hosts "$hosts" --ranks-per-host "$per_host" --rate 10gbit -- \
           "$hpcdb" "${args[@]}" --json "$work/multi.json" > "$work/out" 2>&1; then
        read -r m c v n <<< "$(digest "$work/multi.json")"
        if [ "$m" = "$m1" ] && [ "$c" = "$c1" ] && [ "$v" = "True" ] && [ "$v1" = "True" ] && [ "$n" = "$hosts" ]; then
          passed=$((passed + 1)); echo "ok   $name ($m matches, checksum $c, $n nodes)"
          continue
        fi
      fi
      failed=$((failed + 1)); echo "FAIL $name"; tail -20 "$work/out"
    done
  done
done
# The ring join between hosts, and the broadcast join as real UDP broadcast
# on the hosts' segment (its broadcast address found from the interface's
# address and mask: the script adds addresses without "brd +", so the
# interface reports its own address as the broadcast address), with
# datagrams dropped and repeated on purpose.
for variant in "cyclo" "broadcast --transport udp --udp-loss 0.1 --udp-duplicates 0.1"; do
  name="${variant// /_}_3_hosts"
  read -r -a extra <<< "$variant"
  if timeout 900 "$cluster" --hosts 3 --rate 1gbit -- "$hpcdb" join --algorithm "${extra[@]}" --inner 300K --outer 300K \
       --verify --json "$work/multi.json" > "$work/out" 2>&1; then
    read -r m c v n <<< "$(digest "$work/multi.json")"
    if [ "$m" = "300000" ] && [ "$v" = "True" ] && [ "$n" = "3" ]; then
      passed=$((passed + 1)); echo "ok   $name ($m matches, $n nodes)"
      continue
    fi
  fi
  failed=$((failed + 1)); echo "FAIL $name"; tail -20 "$work/out"
done
# A calibration on emulated hosts knows they share one kernel (and so the
# cores with the network's work); the join's model then adds network and
# compute time and models the window set-up.
name="calibration_sees_shared_cores"
if timeout 900 "$cluster" --hosts 2 --rate 10gbit -- "$hpcdb" calibrate --concurrent --tuples 64Ki --repeat 1 \
     --output "$work/cal.json" > "$work/out" 2>&1 &&
   timeout 900 "$cluster" --hosts 2 --rate 10gbit -- "$hpcdb" join --inner 200K --outer 200K \
     --calibration "$work/cal.json" --json "$work/modelled.json" >> "$work/out" 2>&1 &&
   timeout 300 mpirun -np 1 "$hpcdb" calibrate --tuples 64Ki --repeat 1 --output "$work/cal1.json" >> "$work/out" 2>&1 &&
   python3 - "$work/cal.json" "$work/modelled.json" "$work/cal1.json" <<'PY'
import json, sys
cal, run, single = (json.load(open(f)) for f in sys.argv[1:4])
assert cal["network"]["shares_cores_with_compute"] is True, cal["network"]
assert cal["network"]["window_setup_seconds"] > 0
assert single["network"]["shares_cores_with_compute"] is False
assert run["model"]["network_shares_cores"] is True, run["model"]
assert run["model"]["phases"]["window_allocation"] == cal["network"]["window_setup_seconds"]
PY
then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; tail -20 "$work/out"; fi
# Transactions with remote locks: the one-sided transport's RMA path between
# hosts, 2PC across hosts; the recorded history must be serializable. A
# one-sided round trip between emulated hosts (Open MPI's RMA over TCP on
# shared cores) takes 20-70 ms here, so the reply timeout is raised well above
# the default 10 s.
for transport in one-sided two-sided; do
  name="txn_${transport}_2_hosts_remote_locks"
  if timeout 900 "$cluster" --hosts 2 --ranks-per-host 2 --rate 10gbit -- "$hpcdb" txn --transport "$transport" \
       --lock-agents 2 --remote-prob 0.3 --transactions 100 --locks-per-agent 1000 --reply-timeout 60 \
       --check > "$work/out" 2>&1 &&
     grep -q "2 node(s)" "$work/out" && grep -q "history check: serializable" "$work/out" &&
     grep -Eq "transport ping .* \(same node\), [0-9]" "$work/out"; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    # The failing rank's own message comes before Open MPI's abort notices.
    failed=$((failed + 1)); echo "FAIL $name"; grep -iE "error|hpcdb" "$work/out" | head -20; tail -20 "$work/out"
  fi
done
# The shuffle: every design delivers every row exactly once across hosts
# (checked by --verify), and no design's traffic between hosts bypasses the
# shaped links (UCX would find shared memory between the namespaces): at
# 100 Mbit/s, bytes sent to other hosts stay within what the link carries in
# the run's time plus the token bucket's 1 MB burst (UCX through shared
# memory moved 200 MB/s here).
for layout in "2 2" "3 1"; do
  read -r hosts per_host <<< "$layout"
  name="shuffle_${hosts}_hosts_${per_host}_ranks_each"
  if timeout 900 "$cluster" --hosts "$hosts" --ranks-per-host "$per_host" --rate 10gbit -- \
       "$hpcdb" shuffle --tuples 400K --repeat 1 --threads 2 --buffer-size 16KiB --distribution zipf --verify \
       --json "$work/shuffle.json" > "$work/out" 2>&1 &&
     python3 - "$work/shuffle.json" "$hosts" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["nodes"] == int(sys.argv[2]), r["nodes"]
assert len(r["summary"]) >= 5 and all(s["verified"] is True for s in r["summary"]), r["summary"]
assert all(x["bytes_sent_off_node"] > 0 for run in r["runs"] for x in run["ranks"])
PY
  then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; tail -20 "$work/out"; fi
done
name="shuffle_stays_on_the_shaped_link"
if timeout 900 "$cluster" --hosts 2 --rate 100mbit -- "$hpcdb" shuffle --tuples 2M --repeat 1 --verify \
     --json "$work/shuffle.json" > "$work/out" 2>&1 &&
   python3 - "$work/shuffle.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for run in r["runs"]:
    assert run["verified"] is True, run["design"]
    for x in run["ranks"]:
        carried = 100e6 / 8 * run["seconds"] * 1.05 + 1.1e6
        assert 0 < x["bytes_sent_off_node"] <= carried, (run["design"], x["bytes_sent_off_node"], carried)
PY
then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; tail -20 "$work/out"; fi
if ip netns list | grep -q hpcdb-; then failed=$((failed + 1)); echo "FAIL namespaces left behind"; fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
